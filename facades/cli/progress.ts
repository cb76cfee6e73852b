/** What a long command reports as it goes: a redrawn bar on a terminal, plain lines otherwise. */
export interface Progress {
  update(done: number, detail: string): void;
  finish(): void;
}

export interface ProgressOptions {
  total: number;
  /** Writes a whole line (plain mode). */
  line: (text: string) => void;
  /** Where the bar is redrawn; plain lines are written when it is not a terminal. */
  stream?: NodeJS.WriteStream;
  /** Plain mode writes a line each time this many more percent are done. @default 10 */
  everyPercent?: number;
}

const WIDTH = 30;

export function progress({ total, line, stream = process.stderr, everyPercent = 10 }: ProgressOptions): Progress {
  const started = performance.now();
  const tty = stream.isTTY === true;
  let nextLine = everyPercent;
  let drawn = false;
  const seconds = () => ((performance.now() - started) / 1000).toFixed(1);
  return {
    update(done, detail) {
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const whole = Math.floor(share * 100);
      const percent = `${whole}%`.padStart(4);
      if (tty) {
        const filled = Math.round(share * WIDTH);
        stream.write(`\r[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${percent} ${detail} ${seconds()} s\u001b[K`);
        drawn = true;
      } else if (whole >= nextLine) {
        line(`${percent} ${detail} (${seconds()} s)`);
        while (nextLine <= whole) nextLine += everyPercent;
      }
    },
    finish() {
      if (drawn) stream.write('\n');
    },
  };
}
