// Reads the Prometheus text format as a scraper would: samples by name and label set.
import { expect } from 'vitest';
import { INTERNAL_TOKEN } from '../support/stack.ts';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export class Scrape {
  readonly text: string;
  readonly samples: Sample[];

  constructor(text: string, samples: Sample[]) {
    this.text = text;
    this.samples = samples;
  }

  /** The value of the sample with exactly these labels; undefined when absent. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const wanted = Object.entries(labels);
    return this.samples.find(
      (s) => s.name === name && Object.keys(s.labels).length === wanted.length && wanted.every(([k, v]) => s.labels[k] === v),
    )?.value;
  }

  /** Like `value`, 0 when the series does not exist yet. */
  count(name: string, labels: Record<string, string> = {}): number {
    return this.value(name, labels) ?? 0;
  }

  /** Every value a label takes across the samples of `name`. */
  labelValues(name: string, label: string): string[] {
    return [...new Set(this.samples.filter((s) => s.name === name && label in s.labels).map((s) => s.labels[label]!))];
  }
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

export function parsePrometheus(text: string): Scrape {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`Not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(LABEL))
      labels[key!] = value!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return new Scrape(text, samples);
}

/** GET /metrics with the internal token; fails the test unless it answers 200 in the text format. */
export async function scrape(origin: string, token = INTERNAL_TOKEN): Promise<Scrape> {
  const res = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  expect(res.status, text).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4; charset=utf-8$/);
  return parsePrometheus(text);
}
