// Worker-thread entry of the Piscina pool. Worker threads do not inherit loader hooks that the
// parent registered with `register()` (bin/packline.js does that), and vitest's transform does not
// reach them either, so this plain-JS file loads the TypeScript task module through tsx's scoped
// loader. It works the same whether the parent runs under tsx, vitest or plain Node.
import { tsImport } from 'tsx/esm/api';

const tasks = await tsImport('./tasks.ts', import.meta.url);

export const preparePooledDeliveries = tasks.preparePooledDeliveries;
