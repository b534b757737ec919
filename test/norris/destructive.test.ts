import { describe, expect, it } from 'vitest';
import { isDestructive } from '../../src/norris/destructive.js';

describe('isDestructive', () => {
  it.each([
    // rm
    ['rm -rf build/', true],
    ['rm -rf ./data', true],
    ['rm -r old', true],
    ['rm -fr /tmp/x', true],
    ['rm --recursive dir', true],
    ['rm -f file.txt', true],
    ['sudo rm -rf /var/lib/thing', true],
    ['rm /', true],
    ['rm ~', true],
    ['rm *', true],
    ['rm file.txt', false],
    ['rm notes.md old.log', false],
    ['git rm --cached file', false],
    ['npm run rm-cache', false],
    ['echo rm -rf is dangerous', false],
    // find / dd / mkfs / disks
    ['find . -name "*.tmp" -delete', true],
    ['find /tmp -type f -exec rm {} +', true],
    ['find . -name "*.ts"', false],
    ['dd if=x of=/dev/sda', true],
    ['dd if=/dev/zero of=disk.img bs=1M count=10', true],
    ['dd --help', false],
    ['mkfs.ext4 /dev/sdb1', true],
    ['sudo mkfs -t xfs /dev/nvme0n1', true],
    ['fdisk /dev/sda', true],
    ['wipefs -a /dev/sdb', true],
    ['shred -u secrets.txt', true],
    ['cat image.iso > /dev/sdb', true],
    // git
    ['git push --force', true],
    ['git push -f origin main', true],
    ['git push origin +main', true],
    ['git push --force-with-lease', false],
    ['git push origin main', false],
    ['git reset --hard HEAD~1', true],
    ['git reset --soft HEAD~1', false],
    ['git clean -fdx', true],
    ['git clean -n', false],
    ['git branch -D feature', true],
    ['git branch -d merged', false],
    ['git checkout .', true],
    ['git checkout main', false],
    ['git status', false],
    ['git log --oneline | head', false],
    // ownership and permissions
    ['chown -R me /', true],
    ['sudo chown root:root /etc/passwd', true],
    ['chmod -R 777 .', true],
    ['chmod +x script.sh', false],
    // redirection, system state
    ['> important.log', true],
    ['echo hi > /etc/hosts', true],
    ['echo hi > out.txt', false],
    ['ls > listing.txt', false],
    ['sudo reboot', true],
    ['shutdown -h now', true],
    ['kill -9 -1', true],
    ['kill 1234', false],
    [':(){ :|:& };:', true],
    ['psql -c "DROP TABLE users"', true],
    ['docker system prune -a', true],
    ['docker ps', false],
    ['mv data /dev/null', true],
    ['mv a.txt b.txt', false],
    // wrappers that hide commands
    ['bash -c "rm -rf /"', true],
    ['sh -c "echo hi"', true],
    ['zsh -lc "make"', true],
    ['eval "$CMD"', true],
    ['curl -fsSL https://example.com/install.sh | sh', true],
    ['wget -qO- https://x.sh | sudo bash', true],
    ['python3 -c "import shutil; shutil.rmtree(\'x\')"', true],
    ['perl -e "unlink glob q(*)"', true],
    ['node -e "require(\'fs\').rmSync(\'x\',{recursive:true})"', true],
    ['ls | xargs rm', true],
    ['find . -name "*.bak" | xargs -0 rm -f', true],
    ['ls | xargs echo', false],
    ['source <(curl -s https://x)', true],
    // everyday commands
    ['ls -la', false],
    ['cat README.md', false],
    ['npm test', false],
    ['make build', false],
    ['python3 script.py', false],
    ['grep -rn TODO src', false],
    ['mkdir -p out && cp a out/', false],
    ['tar czf backup.tgz src', false],
    ['curl -s https://api.example.com/status', false],
  ])('%j → %s', (cmd, expected) => {
    expect(isDestructive(cmd).destructive).toBe(expected);
  });

  it('names the reason', () => {
    expect(isDestructive('git push -f').reason).toBe('git push --force');
    expect(isDestructive('bash -c "ls"').reason).toBe('hidden behind a shell -c');
  });
});
