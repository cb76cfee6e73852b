#!/usr/bin/env node
// Entry point of the `packline` command. The sources are TypeScript, run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../facades/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
