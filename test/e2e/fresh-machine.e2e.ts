// A fresh machine (issue 28 › 11): `npm run dev` and `npm test` start with scripts/install-system-deps.sh,
// which installs the missing system packages when it can (root, or sudo without a password) and otherwise
// stops at once with the one command to run. Here the script runs on a PATH that lacks pdfsig, qpdf and
// Chromium, as an unprivileged user, with imitations of sudo and apt-get that record what they were asked.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const script = join(root, 'scripts', 'install-system-deps.sh');
const isRoot = process.getuid?.() === 0;
const which = (tool: string) =>
  spawnSync('bash', ['-c', `command -v ${tool}`])
    .stdout.toString()
    .trim();

/** A bin directory with bash and id only; `extra` adds executable shell scripts by name. */
function freshBin(extra: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'fresh-machine-'));
  chmodSync(dir, 0o777);
  for (const tool of ['bash', 'id']) symlinkSync(which(tool), join(dir, tool));
  for (const [name, body] of Object.entries(extra)) {
    writeFileSync(join(dir, name), `#!${join(dir, 'bash')}\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

/** Runs the script as an unprivileged user (nobody, when the tests run as root) on only `bin`. */
function runScript(bin: string, args: string[] = []) {
  const env = { PATH: bin, HOME: bin };
  const command = isRoot
    ? [which('setpriv'), ['--reuid=65534', '--regid=65534', '--clear-groups', join(bin, 'bash'), script, ...args]]
    : [join(bin, 'bash'), [script, ...args]];
  const result = spawnSync(command[0] as string, command[1] as string[], { env, timeout: 30_000 });
  if (result.error) throw result.error;
  return { status: result.status, stderr: result.stderr.toString(), signal: result.signal };
}

describe('scripts/install-system-deps.sh on a fresh machine', () => {
  it('stops at once with the one command to run when it cannot become root', () => {
    const bin = freshBin({ 'apt-get': 'echo "apt-get must not run" >&2; exit 9' });
    const run = runScript(bin);
    expect(run.signal).toBeNull();
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('Missing system packages: poppler-utils qpdf chromium.');
    expect(run.stderr).toContain('sudo bash scripts/install-system-deps.sh');
    expect(run.stderr).not.toContain('apt-get must not run');
  });

  it('stops when sudo asks for a password instead of waiting for one', () => {
    const bin = freshBin({ 'apt-get': 'exit 9', sudo: '[ "$1" = "-n" ] && exit 1; echo "sudo prompted" >&2; exit 9' });
    const run = runScript(bin);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('sudo bash scripts/install-system-deps.sh');
    expect(run.stderr).not.toContain('sudo prompted');
  });

  it('installs exactly the missing packages through passwordless sudo', () => {
    const log = join(mkdtempSync(join(tmpdir(), 'fresh-machine-log-')), 'calls');
    writeFileSync(log, '');
    chmodSync(log, 0o666);
    chmodSync(join(log, '..'), 0o777);
    const bin = freshBin({
      sudo: `[ "$1" = "-n" ] && shift; [ "$1" = "true" ] && exit 0; echo "sudo $*" >> ${log}; exit 0`,
      'apt-get': `echo "apt-get $*" >> ${log}`,
    });
    const run = runScript(bin);
    expect(run.status).toBe(0);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toEqual(['sudo apt-get update -qq', 'sudo apt-get install -y -qq --no-install-recommends poppler-utils qpdf chromium']);
  });

  it('names the packages when the machine has no apt-get', () => {
    const run = runScript(freshBin());
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('install poppler-utils qpdf chromium with your system');
  });

  it('is silent and succeeds where everything is installed', () => {
    const result = spawnSync('bash', [script], { timeout: 30_000 });
    expect(result.status).toBe(0);
    expect(result.stderr.toString()).toBe('');
  });

  it('runs first in npm run dev and in every npm test command', () => {
    const scripts = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts as Record<string, string>;
    for (const name of ['dev', 'test', 'test:unit', 'test:e2e'])
      expect(scripts[name]).toMatch(/^bash scripts\/install-system-deps\.sh && /);
  });
});
