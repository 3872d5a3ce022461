/**
 * The real stores the durable ledgers are tested on, started by `npm test` itself: a Redis and a
 * PostgreSQL on free ports of 127.0.0.1, each in a temporary directory, stopped and removed when
 * the run ends. The tests read their URLs with `inject("redisUrl")` / `inject("databaseUrl")`; doc
 * snippets read `REDIS_URL` / `DATABASE_URL`. Without the servers installed the run fails, saying
 * what to install: a ledger test that skipped would prove nothing. `npm run bench` starts its own
 * pair the same way (`startServices`, bench/ledgers.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
} from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
  }
}

const INSTALL =
  "install Debian's redis-server and postgresql (`npm run services:install`, or `sudo apt-get install -y redis-server postgresql`)";

/** A Redis and a PostgreSQL started for one run, and how to stop and remove them. */
export interface Services {
  redisUrl: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const services = await startServices();
  project.provide("redisUrl", services.redisUrl);
  project.provide("databaseUrl", services.databaseUrl);
  // The doc snippets are modules run as written: they read the URLs from the environment.
  process.env.REDIS_URL = services.redisUrl;
  process.env.DATABASE_URL = services.databaseUrl;
  return services.stop;
}

/**
 * Starts a Redis and a PostgreSQL on free ports of 127.0.0.1, in a temporary directory that
 * `stop` removes: for the tests (above) and for `npm run bench`'s ledger and queue rows. Rejects,
 * having stopped whatever had started, saying what to install when either is missing.
 */
export async function startServices(): Promise<Services> {
  const root = mkdtempSync(join(tmpdir(), "ignite-services-"));
  // Readable by the postgres user, who runs the database when the tests run as root.
  chmodSync(root, 0o755);
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    await Promise.allSettled(stops.map((stopOne) => stopOne()));
    rmSync(root, { recursive: true, force: true });
  };
  // Both settle before anything is torn down: a server still starting when the other failed
  // would otherwise register its stop after the teardown ran, and outlive the run.
  const [redis, postgres] = await Promise.allSettled([
    startRedis(join(root, "redis"), stops),
    startPostgres(join(root, "pg"), stops),
  ]);
  if (redis.status === "rejected" || postgres.status === "rejected") {
    await stop();
    const reasons = [redis, postgres].flatMap((started) =>
      started.status === "rejected" ? [messageOf(started.reason)] : [],
    );
    throw new Error(reasons.join("\n"));
  }
  return { redisUrl: redis.value, databaseUrl: postgres.value, stop };
}

function messageOf(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}

async function startRedis(dir: string, stops: (() => Promise<void>)[]): Promise<string> {
  const redis = await redisServer(dir);
  stops.push(redis.stop);
  return redis.url;
}

/**
 * A Redis server of its own on a free port, storing in `dir` (created): for the test that stops
 * one under a ledger's feet.
 */
export async function redisServer(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const server = which("redis-server", ["/usr/bin/redis-server"]);
  if (!server)
    throw new Error(`The durable ledgers' tests and benchmarks need a Redis server: ${INSTALL}.`);
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  // Nothing persisted: the tests need a server, not its disk.
  const child = spawn(
    server,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no",
    ],
    { stdio: "ignore" },
  );
  const stop = () => stopChild(child);
  try {
    await waitFor(`redis-server on port ${port}`, child, () => answers(port, "PING\r\n", "+PONG"));
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `redis://127.0.0.1:${port}`, stop };
}

async function startPostgres(dir: string, stops: (() => Promise<void>)[]): Promise<string> {
  const bin = postgresBin();
  if (!bin)
    throw new Error(
      `The durable ledgers' tests and benchmarks need PostgreSQL (initdb, pg_ctl): ${INSTALL}.`,
    );
  mkdirSync(dir);
  // PostgreSQL refuses to run as root: then it runs as the postgres user, on a directory it owns.
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const [file, argv] = asRoot
      ? ["runuser", ["-u", "postgres", "--", join(bin, command), ...args]]
      : [join(bin, command), args];
    execFileSync(file, argv, { stdio: "pipe" });
  };
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }));
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }));
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  const port = await freePort();
  // No fsync: a test database that a crash loses costs nothing, and initdb is seconds faster.
  run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  run("pg_ctl", ["-D", data, "-l", join(dir, "log"), "-o", options, "-w", "-s", "start"]);
  stops.push(async () => run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "-s", "stop"]));
  return `postgres://postgres@127.0.0.1:${port}/postgres`;
}

/** The directory of the newest PostgreSQL's programs: Debian's, or the ones on the PATH. */
function postgresBin(): string | undefined {
  const debian = "/usr/lib/postgresql";
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((version) => existsSync(join(debian, version, "bin", "pg_ctl")))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0] !== undefined) return join(debian, versions[0], "bin");
  }
  const initdb = which("initdb", []);
  return initdb && join(initdb, "..");
}

function which(program: string, known: string[]): string | undefined {
  const found = known.find((path) => existsSync(path));
  if (found) return found;
  try {
    return (
      execFileSync("sh", ["-c", `command -v ${program}`], { encoding: "utf8" }).trim() || undefined
    );
  } catch {
    return undefined;
  }
}

/** A port of 127.0.0.1 that nothing listens on (the test of a store that is down uses one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a server on `port` answers `request` with a reply starting with `expected`. */
function answers(port: number, request: string, expected: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    socket.setTimeout(500);
    socket.on("connect", () => socket.write(request));
    socket.on("data", (data) => {
      socket.destroy();
      resolve(data.toString().startsWith(expected));
    });
    for (const event of ["error", "timeout", "close"]) socket.on(event, () => resolve(false));
  });
}

async function waitFor(what: string, child: ChildProcess, ready: () => Promise<boolean>) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${what} exited with code ${child.exitCode}`);
    if (await ready()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`${what} did not start within 5 s`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
