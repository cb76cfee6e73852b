// Reporting: the machine, markdown tables, number formats and results files.
import { writeFileSync } from 'node:fs';
import { cpus, freemem, platform, release, totalmem } from 'node:os';

export function machine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() ?? 'unknown',
    cores: cores.length,
    node: process.version,
    platform: `${platform()} ${release()}`,
    memoryGb: Math.round(totalmem() / 2 ** 30),
    freeMemoryGb: Math.round(freemem() / 2 ** 30),
  };
}

/** A GitHub-flavoured markdown table; numbers are right-aligned. */
export function markdownTable(headers: string[], rows: (string | number)[][]): string {
  const cells = rows.map((row) => row.map(String));
  const widths = headers.map((h, i) => Math.max(h.length, 3, ...cells.map((row) => row[i]?.length ?? 0)));
  const numeric = headers.map((_, i) => cells.length > 0 && cells.every((row) => /^[\d.,\s%×x-]+$/.test(row[i] ?? '')));
  const line = (values: string[]) =>
    `| ${values.map((v, i) => (numeric[i] ? v.padStart(widths[i]!) : v.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w + 1)}:` : `${'-'.repeat(w + 2)}`)).join('|')}|`;
  return [line(headers), rule, ...cells.map(line)].join('\n');
}

/** The middle value (the upper one of an even count); NaN for none. */
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export const formatInt = (n: number) => Math.round(n).toLocaleString('en-US');
export const formatMs = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));
export const formatPercent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** Writes `data` as indented JSON (creating nothing else). */
export function writeResults(path: string, data: unknown): void {
  writeFileSync(path, `${JSON.stringify(data, null, 2)}\n`);
}
