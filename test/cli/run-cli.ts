// Runs the `packline` command: the real one (node bin/packline.js) in a child process, without a
// shell, or its `main(argv, io)` in this process, which is what the binary runs once Node's version
// is checked and help is answered: the same parsing, operations, output and exit codes, without
// a process start-up (about 2 s of CPU) per command.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/packline.js', import.meta.url));

/**
 * Variables the service reads. They are removed from the inherited environment so a CLI process
 * sees only what the test gives it (the PostgreSQL/Redis run exports DATABASE_URL and REDIS_URL,
 * which must not leak into a process meant to use SQLite in its own DATA_DIR).
 */
const SERVICE_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'PUBLIC_BASE_URL',
  'INTERNAL_API_TOKEN',
  'LOG_LEVEL',
  'RATE_LIMIT_PER_MINUTE',
  'NODE_ENV',
  'ROLE',
  'SHUTDOWN_GRACE_SECONDS',
  'MALLOC_ARENA_MAX',
];

export interface CliResult {
  /** Exit code; null when the process was ended by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The inherited environment minus the service's variables, plus `env`. */
export function cliEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const name of SERVICE_VARIABLES) delete base[name];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete base[name];
    else base[name] = value;
  }
  return base;
}

/** Runs `packline ...args` to completion in a child process (`nodeOptions` go before the script). */
export function runCli(
  args: string[],
  env: Record<string, string | undefined>,
  { timeoutMs = 90_000, nodeOptions = [] as string[] } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeOptions, BIN, ...args],
      { cwd: ROOT, env: cliEnv(env), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number' && !error.signal) return reject(error);
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        const signal = (error?.signal as NodeJS.Signals | undefined) ?? null;
        resolve({ code, signal, stdout, stderr });
      },
    );
  });
}

/** Runs a command that must succeed with --json and returns its parsed stdout. */
export async function runJson<T = unknown>(args: string[], env: Record<string, string | undefined>): Promise<T> {
  return parseJsonResult(args, await runCli([...args, '--json'], env));
}

function parseJsonResult<T>(args: string[], result: CliResult): T {
  if (result.code !== 0) {
    throw new Error(`packline ${args.join(' ')} exited ${result.code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`);
  }
  try {
    return JSON.parse(result.stdout) as T;
  } catch {
    throw new Error(`packline ${args.join(' ')} printed no JSON on stdout:\n${result.stdout}`);
  }
}

/** Runs `packline ...args` in this process, through `main(argv, io)` with the environment `cliEnv(env)`. */
export async function runInProcess(args: string[], env: Record<string, string | undefined>): Promise<CliResult> {
  const { main } = await import('../../facades/cli/main.ts');
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    out: (text) => {
      stdout += `${text}\n`;
    },
    err: (text) => {
      stderr += `${text}\n`;
    },
    env: cliEnv(env),
  });
  return { code, signal: null, stdout, stderr };
}

/** `runJson`, in this process. */
export async function runJsonInProcess<T = unknown>(args: string[], env: Record<string, string | undefined>): Promise<T> {
  return parseJsonResult(args, await runInProcess([...args, '--json'], env));
}

/** A long-running `packline` process (`packline start`). */
export interface CliProcess {
  child: ChildProcess;
  /** Everything written so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` on stdout; rejects at the deadline or if the process exits first. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal) once the process has ended; rejects at the deadline. */
  exited(timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` and waits for the exit. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process if it is still running (cleanup). */
  kill(): void;
}

export function spawnCli(args: string[], env: Record<string, string | undefined>): CliProcess {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cliEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exitPromise = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      exit = { code, signal };
      resolve(exit);
    });
  });

  const exited = (timeoutMs = 20_000) =>
    new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`packline ${args.join(' ')} did not exit within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`)),
        timeoutMs,
      );
      void exitPromise.then((result) => {
        clearTimeout(timer);
        resolve(result);
      });
    });

  return {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForOutput(pattern, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = out.match(pattern);
          if (match) {
            done();
            resolve(match);
          }
        };
        const onExit = () => {
          check();
          done();
          reject(
            new Error(
              `packline ${args.join(' ')} exited (${exit?.code ?? exit?.signal}) before printing ${pattern}\nstdout: ${out}\nstderr: ${err}`,
            ),
          );
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`packline ${args.join(' ')} did not print ${pattern} within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.off('close', onExit);
        };
        child.stdout!.on('data', check);
        child.on('close', onExit);
        // Listeners run in registration order: the accumulating one above has already appended.
        check();
      });
    },
    exited,
    async stop(signal = 'SIGTERM', timeoutMs = 20_000) {
      if (!exit) child.kill(signal);
      return exited(timeoutMs);
    },
    kill() {
      if (!exit && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * Awaits a condition on another process's effect: calls `probe` until `accept` holds, or fails
 * at the deadline with the last value seen. Used for changes the server notices by polling.
 */
export async function eventually<T>(
  probe: () => Promise<T>,
  accept: (value: T) => boolean,
  { timeoutMs = 4_000, intervalMs = 50, what = 'condition' } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await probe();
    if (accept(last)) return last;
    if (Date.now() >= deadline) throw new Error(`${what} not reached within ${timeoutMs} ms; last value: ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
