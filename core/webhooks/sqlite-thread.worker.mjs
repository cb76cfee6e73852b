// Entry of the dispatcher's SQLite thread. Worker threads do not inherit the loader hooks the
// parent registered, so this plain-JS file loads the TypeScript module through tsx's scoped
// loader (as workers/tasks.worker.mjs does), whether the parent runs under tsx, vitest or Node.
import { tsImport } from 'tsx/esm/api';

await tsImport('./sqlite-thread.ts', import.meta.url);
