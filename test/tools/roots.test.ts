// Which directories may be offered as roots: never /, the home folder or a folder above it, also
// through a symlink (server-filesystem resolves the links of a root before it uses it).

import { describe, expect, it } from 'vitest';
import { offeredRoots, tooWide } from '../../src/tools/roots.js';

const links: Record<string, string> = { '/data/ada': '/data/ada', '/home/ada': '/data/ada', '/home/ada/proj/up': '/home/ada', '/srv/link-to-home': '/data/ada' };
const place = { cwd: '/home/ada/proj', home: '/home/ada', realpath: (dir: string) => links[dir] ?? dir };

describe('tooWide', () => {
  it.each([
    ['/', true],
    ['/home', true],
    ['/home/ada', true],
    ['/home/ada/', true],
    ['/data', true],
    ['/data/ada', true],
    ['/srv/link-to-home', true],
    ['/home/ada/proj/up', true],
    ['/home/ada/proj', false],
    ['/home/adabelle', false],
    ['/home/ada/..proj', false],
    ['/srv/notes', false],
  ])('%s → %s', (dir, wide) => {
    expect(tooWide(dir, place)).toBe(wide);
  });

  it('without a home folder only / is too wide', () => {
    expect(tooWide('/', { home: undefined, realpath: (d) => d })).toBe(true);
    expect(tooWide('/home', { home: undefined, realpath: (d) => d })).toBe(false);
  });
});

describe('offeredRoots', () => {
  it('keeps the order given, offers each directory once and lists what was withheld', () => {
    expect(offeredRoots(['/srv/notes', '~', '.', '/srv/notes', '/', 'up'], place)).toEqual({
      roots: [
        { uri: 'file:///srv/notes', name: 'notes' },
        { uri: 'file:///home/ada/proj', name: 'proj' },
      ],
      withheld: ['/home/ada', '/', '/home/ada/proj/up'],
    });
  });

  it('"cwd" is the current directory, or nothing from the home folder', () => {
    expect(offeredRoots('cwd', place).roots).toEqual([{ uri: 'file:///home/ada/proj', name: 'proj' }]);
    expect(offeredRoots('cwd', { ...place, cwd: '/home/ada' })).toEqual({ roots: [], withheld: ['/home/ada'] });
  });
});
