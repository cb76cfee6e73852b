import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/**
 * One JSON Schema validator for every MCP server of the process. Both connectors build a server
 * per request (stateless); left alone, the SDK builds a new Ajv instance, formats and all, for
 * each, which cost a tenth of the public connector's CPU. The validator keeps no request state.
 */
export const SHARED_SCHEMA_VALIDATOR = new AjvJsonSchemaValidator();
