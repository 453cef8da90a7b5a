// Starts the real `recents serve` on a free loopback port with a temporary database, for the tests
// that run against a live server. `bin` is RECENTS_BIN, default .build/debug/recents.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const bin = process.env.RECENTS_BIN ?? '.build/debug/recents';

/** A skip reason when the binary is missing, else false (for `test(name, { skip }, …)`). */
export const skipWithoutServer = !existsSync(bin) && `no ${bin}`;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Starts a server; answers `{base, stop()}` once `/healthz` answers. */
export async function startServer() {
  const dir = mkdtempSync(join(tmpdir(), 'recents-web-'));
  const port = await freePort();
  const child = spawn(bin, ['serve', '--db', join(dir, 'db.sqlite'), '--host', '127.0.0.1', '--port', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr.on('data', (d) => {
    log = (log + d).slice(-4000);
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
    if (child.exitCode !== null) throw new Error(`server exited: ${log}`);
  }
  return {
    base,
    stop() {
      child.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
