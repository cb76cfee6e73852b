// The other checkout of bench:paired and bench:server-cost: checked before anything runs, and run
// with its own Node rather than this checkout's.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeExecutable, nodeOnPath, otherCheckout, otherCheckoutEnv, UsageError } from '../../bench/support/other-checkout.ts';
import { ROOT } from '../../bench/support/processes.ts';

const made: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'other-checkout-'));
  made.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('otherCheckout', () => {
  it('refuses this checkout, a folder without package.json, and one without node_modules, each in one line', () => {
    expect(() => otherCheckout(ROOT)).toThrow(new UsageError('--against names this checkout: give another one'));
    const empty = folder();
    expect(() => otherCheckout(empty)).toThrow(/holds no package\.json/);
    writeFileSync(join(empty, 'package.json'), JSON.stringify({ scripts: { 'bench:rest': 'node x' } }));
    expect(() => otherCheckout(empty)).toThrow(/has no node_modules: run npm ci there first/);
    mkdirSync(join(empty, 'node_modules'));
    expect(otherCheckout(empty)).toEqual({ dir: empty, scripts: { 'bench:rest': 'node x' } });
  });
});

describe('otherCheckoutEnv and nodeOnPath', () => {
  it("leaves out this checkout's node_modules/.bin and the npm_* variables, and finds the next node on PATH", () => {
    const bin = folder();
    writeFileSync(join(bin, 'node'), '');
    const saved = { PATH: process.env.PATH, npm_lifecycle_event: process.env.npm_lifecycle_event };
    process.env.PATH = [join(ROOT, 'node_modules', '.bin'), bin].join(delimiter);
    process.env.npm_lifecycle_event = 'bench:paired';
    try {
      const env = otherCheckoutEnv();
      expect(env.PATH).toBe(bin);
      expect(env.npm_lifecycle_event).toBeUndefined();
      expect(nodeOnPath(env)).toBe(join(bin, 'node'));
      expect(nodeOnPath({ PATH: '' })).toBeUndefined();
    } finally {
      process.env.PATH = saved.PATH;
      if (saved.npm_lifecycle_event === undefined) delete process.env.npm_lifecycle_event;
      else process.env.npm_lifecycle_event = saved.npm_lifecycle_event;
    }
  });
});

describe('otherCheckoutEnv with a Node, and nodeExecutable', () => {
  it("puts the given Node's folder first on the other checkout's PATH", () => {
    const bin = folder();
    const saved = process.env.PATH;
    process.env.PATH = [join(ROOT, 'node_modules', '.bin'), '/usr/bin'].join(delimiter);
    try {
      expect(otherCheckoutEnv(join(bin, 'node')).PATH).toBe([bin, '/usr/bin'].join(delimiter));
    } finally {
      process.env.PATH = saved;
    }
  });

  it('takes an executable file (named node when found on a PATH), and refuses anything else in one line', () => {
    const bin = folder();
    const node = join(bin, 'node');
    writeFileSync(node, '#!/bin/sh\n', { mode: 0o755 });
    expect(nodeExecutable(node)).toBe(node);
    expect(nodeExecutable(node, { onPath: true })).toBe(node);
    writeFileSync(join(bin, 'node20'), '#!/bin/sh\n', { mode: 0o755 });
    expect(nodeExecutable(join(bin, 'node20'))).toBe(join(bin, 'node20'));
    expect(() => nodeExecutable(join(bin, 'node20'), { onPath: true })).toThrow(/--node takes a file named node/);
    const plain = join(folder(), 'node');
    writeFileSync(plain, '', { mode: 0o644 });
    expect(() => nodeExecutable(plain)).toThrow(new UsageError(`--node takes an executable Node (got '${plain}')`));
    expect(() => nodeExecutable(bin)).toThrow(/--node takes an executable Node/);
    expect(() => nodeExecutable(join(bin, 'missing'))).toThrow(/--node takes an executable Node/);
  });
});
