// Starts the SOFA peer as a child process, beside a running Packline on the same database.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT, stopChild } from './processes.ts';

export interface SofaPeerProcess {
  child: ChildProcess;
  origin: string;
  /** What the peer wrote on stdout and stderr so far (the last 20,000 characters). */
  output(): string;
  stop(): Promise<void>;
}

export interface StartSofaPeerOptions {
  /**
   * Packline's environment (DATA_DIR or DATABASE_URL, INTERNAL_API_TOKEN, RATE_LIMIT_PER_MINUTE…);
   * PORT and HOST are set here.
   */
  env: NodeJS.ProcessEnv;
  /** Packline's public base URL, so both answer the same links. */
  publicBaseUrl: string;
  /** Leave out the rate limit and the quota. @default false */
  noLimits?: boolean;
  /** @default 60_000 */
  timeoutMs?: number;
}

/** `node bench/support/sofa-peer-server.ts` on a port the kernel picks. */
export async function startSofaPeer({
  env,
  publicBaseUrl,
  noLimits = false,
  timeoutMs = 60_000,
}: StartSofaPeerOptions): Promise<SofaPeerProcess> {
  const child = spawn(process.execPath, [join(ROOT, 'bench/support/sofa-peer-server.ts')], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', PUBLIC_BASE_URL: publicBaseUrl, PEER_LIMITS: noLimits ? '0' : '1', NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Never outlive this process, however it ends (no signal handlers: a test runner's worker keeps its own).
  const killOnExit = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  let text = '';
  const keep = (chunk: Buffer) => {
    text = (text + chunk.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const port = await new Promise<number>((done, fail) => {
    const timer = setTimeout(() => {
      void stopChild(child);
      fail(new Error(`the SOFA peer did not listen within ${timeoutMs} ms:\n${text.slice(-3000)}`));
    }, timeoutMs);
    const onData = () => {
      const listening = /SOFA_PEER_LISTENING (\d+)/.exec(text);
      if (!listening) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      done(Number(listening[1]));
    };
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`the SOFA peer exited (${code}) before listening:\n${text.slice(-3000)}`));
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
  return { child, origin: `http://127.0.0.1:${port}`, output: () => text, stop: () => stopChild(child) };
}
