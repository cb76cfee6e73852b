import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../cli/run-cli.ts';

export const DEBIAN_CHROMIUM = '/usr/bin/chromium';

/** Flags of the shipped package that would switch off the same-origin rules the pages rely on. */
export const WEAKENING_FLAGS = new Set(['--disable-web-security', '--allow-running-insecure-content']);

export interface ShippedChromium {
  executable: string;
  args: string[];
}

/**
 * The Chromium inside `@sparticuz/chromium`, unpacked once per checkout under
 * `node_modules/.cache/packline-chromium/<version>`. The package unpacks into `os.tmpdir()`, and
 * answers with whatever it finds there, half-written or not; so each process unpacks into a fresh
 * folder of its own and renames it into place: the first rename wins, the others use its result.
 */
export async function shippedChromium(): Promise<ShippedChromium> {
  const { default: Chromium } = await import('@sparticuz/chromium');
  // The package exports no package.json, so its version is read from the file.
  const manifest = join(ROOT, 'node_modules', '@sparticuz', 'chromium', 'package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  const home = join(ROOT, 'node_modules', '.cache', 'packline-chromium');
  const target = join(home, version);
  if (!existsSync(join(target, 'chromium'))) {
    mkdirSync(home, { recursive: true });
    const scratch = mkdtempSync(join(home, `${version}-`));
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = scratch;
    try {
      await Chromium.executablePath();
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
    try {
      renameSync(scratch, target);
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      if (!existsSync(join(target, 'chromium'))) throw error;
    }
  }
  return { executable: join(target, 'chromium'), args: Chromium.args };
}
