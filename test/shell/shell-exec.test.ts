// Which lines replace the session's shell with another interactive shell (`exec zsh`).

import { describe, expect, it } from 'vitest';
import { shellReplacement } from '../../src/shell/shell-exec.js';

describe('shellReplacement', () => {
  it.each([
    ['exec bash', 'bash'],
    ['  exec zsh  ', 'zsh'],
    ['exec /bin/zsh -l', '/bin/zsh'],
    ['exec bash --login', 'bash'],
    ['exec -l bash', 'bash'],
    ['exec -a myshell zsh -i', 'zsh'],
    ['exec fish', 'fish'],
    ['exec bash -c "echo hi"', null],
    ['exec bash -lc ls', null],
    ['exec bash script.sh', null],
    ['exec zsh 2>/dev/null', null],
    ['exec >/tmp/x.log', null],
    ['exec bash; echo after', null],
    ['exec vim', null],
    ['exec', null],
    ['bash', null],
    ['echo exec bash', null],
    ['exec $SHELL -l', null],
  ])('%j -> %j', (line, program) => {
    expect(shellReplacement(line)).toBe(program);
  });

  it('reads $SHELL as the shell says it is', () => {
    expect(shellReplacement('exec $SHELL', '/usr/bin/zsh')).toBe('/usr/bin/zsh');
    expect(shellReplacement('exec ${SHELL} -l', '/bin/bash')).toBe('/bin/bash');
    expect(shellReplacement('exec $SHELLX', '/bin/bash')).toBe(null);
  });
});
