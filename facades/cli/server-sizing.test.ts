import { describe, expect, it } from 'vitest';
import { SERVER_MALLOC_ARENAS, SERVER_V8_FLAGS, serverSizing, startRole } from './server-sizing.js';

const CAPS = { flags: SERVER_V8_FLAGS, env: { MALLOC_ARENA_MAX: SERVER_MALLOC_ARENAS } };

describe('serverSizing: what `packline start` adds to its own process', () => {
  it('sizes a server that serves the API: both heap caps and two malloc arenas', () => {
    expect(SERVER_V8_FLAGS).toEqual(['--max-semi-space-size=16', '--max-old-space-size=1024']);
    expect(serverSizing(['start'], {}, [])).toEqual(CAPS);
    expect(serverSizing(['start', '--role', 'api'], {}, [])).toEqual(CAPS);
    expect(serverSizing(['start', '--no-demo'], { ROLE: 'all' }, [])).toEqual(CAPS);
  });

  it('leaves a dispatcher to V8 and glibc, whichever way the role is given', () => {
    expect(serverSizing(['start', '--role', 'dispatcher'], {}, [])).toBeUndefined();
    expect(serverSizing(['start', '--role=dispatcher'], {}, [])).toBeUndefined();
    expect(serverSizing(['start'], { ROLE: 'Dispatcher' }, [])).toBeUndefined();
    // The flag wins over the variable, the last flag over the ones before.
    expect(serverSizing(['start', '--role', 'dispatcher'], { ROLE: 'api' }, [])).toBeUndefined();
    expect(serverSizing(['start', '--role', 'api'], { ROLE: 'dispatcher' }, [])).toEqual(CAPS);
    expect(serverSizing(['start', '--role', 'dispatcher', '--role', 'all'], {}, [])).toEqual(CAPS);
  });

  it("keeps an operator's own values, on node's command line or in NODE_OPTIONS (dashes or underscores)", () => {
    expect(serverSizing(['start'], {}, ['--max-old-space-size=700'])).toEqual({
      flags: ['--max-semi-space-size=16'],
      env: { MALLOC_ARENA_MAX: '2' },
    });
    expect(serverSizing(['start'], { NODE_OPTIONS: '--max_semi_space_size=8', MALLOC_ARENA_MAX: '4' }, [])).toEqual({
      flags: ['--max-old-space-size=1024'],
      env: {},
    });
    // Everything given: nothing to add, no re-execution.
    expect(
      serverSizing(['start'], { MALLOC_ARENA_MAX: '4', NODE_OPTIONS: '--max-old-space-size=700 --max-semi-space-size=8' }, []),
    ).toBeUndefined();
  });

  it('adds nothing to other commands', () => {
    for (const argv of [[], ['--version'], ['migrate'], ['seed', '--needs', '10'], ['help', 'start']])
      expect(serverSizing(argv, {}, []), argv.join(' ')).toBeUndefined();
  });
});

describe('startRole', () => {
  it('reads the last --role before any `--`, else ROLE, else all', () => {
    expect(startRole([], {})).toBe('all');
    expect(startRole([], { ROLE: 'API' })).toBe('api');
    expect(startRole(['--role', 'dispatcher'], { ROLE: 'api' })).toBe('dispatcher');
    expect(startRole(['--role=api', '--no-demo'], {})).toBe('api');
    expect(startRole(['--', '--role', 'dispatcher'], {})).toBe('all');
    // A --role without its value is the command's to refuse; the sizing keeps what it had.
    expect(startRole(['--role'], { ROLE: 'dispatcher' })).toBe('dispatcher');
  });
});
