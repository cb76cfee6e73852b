import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createAccessLog, createLogger } from './logger.ts';

describe('createAccessLog', () => {
  it('writes the line pino would write, whatever the request id, method and path hold', () => {
    let written = '';
    const destination = new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        done();
      },
    });
    const logger = createLogger('info', { destination, pretty: false });
    const access = createAccessLog(logger);
    const text = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.constantFrom('', '"', '\\', '\u2028', '\ud800', '\udc00x', '😀'),
    );
    fc.assert(
      fc.property(text, text, text, (requestId, method, path) => {
        written = '';
        access({ requestId, method, path, status: 200, ms: 1.5 });
        const line = written.replace(/"time":\d+/, '"time":0');
        expect(line).toBe(
          `{"level":30,"time":0,"service":"packline","req_id":${JSON.stringify(requestId)},"method":${JSON.stringify(method)},` +
            `"path":${JSON.stringify(path)},"status":200,"ms":1.5,"msg":"request"}\n`,
        );
        expect(JSON.parse(line)).toMatchObject({ req_id: requestId, method, path });
      }),
      { numRuns: 500 },
    );
  });
});
