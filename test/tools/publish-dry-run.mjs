// `npm run publish:dry-run`: publishing to both extension marketplaces, rehearsed offline, so that VSCodium, Cursor
// and Windsurf users (Open VSX) get the same package as VS Code users (the Marketplace).
// - Marketplace: `vsce package` (test/tools/package.mjs: build, the .vsix, its size limit). Publishing it is
//   `vsce publish --packagePath <vsix>` with a token, which needs the network; everything before the upload is here.
// - Open VSX: `ovsx publish` itself, twice, against a stand-in for the registry on 127.0.0.1: once packaging the folder
//   as `npx ovsx publish` does (through its own copy of vsce), once with the .vsix vsce made. ovsx reads each package's
//   manifest and uploads it; the stand-in takes the upload only when it is a .vsix of this extension at this version
//   and answers as open-vsx.org does. The licence check ovsx makes for open-vsx.org is run here directly.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageExtension } from './package.mjs';

const require = createRequire(import.meta.url);
const yauzl = require('yauzl');
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const manifest = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));

/** The entry names and the package.json of a .vsix. */
function readVsix(file) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names = [];
      let packageJson;
      zip.on('entry', (entry) => {
        names.push(entry.fileName);
        if (entry.fileName !== 'extension/package.json') return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e) return reject(e);
          const chunks = [];
          stream.on('data', (c) => chunks.push(c)).on('end', () => {
            packageJson = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve({ names, packageJson }));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** The registry's publish endpoint, as far as ovsx talks to it; every upload is checked and kept in `received`. */
async function standInRegistry() {
  const received = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'howdah-openvsx-'));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://localhost');
    if (req.method !== 'POST' || url.pathname !== '/api/-/publish') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'Not found' }));
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c)).on('end', async () => {
      const file = path.join(dir, `upload-${received.length}.vsix`);
      fs.writeFileSync(file, Buffer.concat(chunks));
      try {
        const { names, packageJson } = await readVsix(file);
        const problems = [
          !names.includes('extension.vsixmanifest') && 'no extension.vsixmanifest',
          !names.includes('extension/out/extension.js') && 'no extension/out/extension.js',
          packageJson?.publisher !== manifest.publisher && `publisher ${packageJson?.publisher}`,
          packageJson?.name !== manifest.name && `name ${packageJson?.name}`,
          packageJson?.version !== manifest.version && `version ${packageJson?.version}`,
          !url.searchParams.get('token') && !req.headers.authorization && 'no token',
        ].filter(Boolean);
        received.push({ size: fs.statSync(file).size, files: names.length, problems });
        if (problems.length) {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: problems.join('; ') }));
          return;
        }
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ namespace: manifest.publisher, name: manifest.name, version: manifest.version, targetPlatform: 'universal' }));
      } catch (error) {
        received.push({ size: chunks.length, files: 0, problems: [String(error)] });
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: `not a .vsix: ${error.message}` }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = () => {
    server.close();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  return { url: `http://127.0.0.1:${server.address().port}`, received, close };
}

/** Runs ovsx with `args`; resolves to its output, rejects on a non-zero exit. */
function ovsx(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(path.dirname(require.resolve('ovsx/package.json')), 'bin', 'ovsx'), ...args], {
      cwd: REPO,
      // No token in the environment, no prompts: stdin is closed.
      env: { ...process.env, OVSX_PAT: '', CI: 'true' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(output) : reject(new Error(`ovsx ${args[0]} failed (exit ${code}):\n${output}`))));
  });
}

export async function publishDryRun() {
  const vsix = packageExtension();
  const { isLicenseOk } = require('ovsx/lib/check-license');
  if (!(await isLicenseOk(REPO))) throw new Error('Open VSX refuses an extension without a licence: package.json has none, and no LICENSE file');
  const registry = await standInRegistry();
  try {
    const common = ['--registryUrl', registry.url, '--pat', 'dry-run'];
    // Packaging the folder rewrites the README's relative links (the screenshots) to absolute ones, from the repository.
    const repo = String(JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).repository?.url ?? '').replace(/\.git$/, '');
    const links = repo ? ['--baseContentUrl', `${repo}/blob/HEAD/`, '--baseImagesUrl', `${repo}/raw/HEAD/`] : [];
    console.log(await ovsx(['publish', ...common, ...links]));
    console.log(await ovsx(['publish', vsix, ...common]));
  } finally {
    registry.close();
  }
  const bad = registry.received.filter((r) => r.problems.length);
  if (registry.received.length !== 2 || bad.length) throw new Error(`Open VSX stand-in: ${JSON.stringify(registry.received)}`);
  for (const [i, r] of registry.received.entries()) {
    console.log(`Open VSX ${i === 0 ? '(packaged by ovsx)' : '(the vsce .vsix)'}: ${(r.size / 1024).toFixed(1)} KB, ${r.files} files, accepted`);
  }
  console.log(`Marketplace: ${path.basename(vsix)} packaged by vsce; publish with \`npx vsce publish --packagePath ${path.basename(vsix)}\``);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  publishDryRun().catch((e) => {
    console.error(e.message);
    process.exit(1);
  });
}
