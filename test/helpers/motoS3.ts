/**
 * Moto's S3 server (the `moto` Python package's `moto_server`, an independent implementation of the
 * AWS APIs), when this machine has it: a second opinion on the file store besides our own stand-in.
 * Answers null when `moto_server` is not on PATH, so the tests that need it are skipped.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './server';

export const MOTO_SERVER =
  (process.env.PATH ?? '')
    .split(delimiter)
    .map((d) => join(d, 'moto_server'))
    .find((p) => existsSync(p)) ?? null;

export interface MotoS3 {
  endpoint: string;
  bucket: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}

export async function startMotoS3(bucket = 'courier'): Promise<MotoS3> {
  if (!MOTO_SERVER) throw new Error('moto_server is not installed');
  const port = await freePort();
  const child = spawn(MOTO_SERVER, ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const credentials = { accessKeyId: 'moto-test-key', secretAccessKey: 'moto-test-secret' };
  const client = new S3Client({ region, endpoint, forcePathStyle: true, credentials, maxAttempts: 1 });
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      break;
    } catch (err) {
      if (Date.now() > deadline || child.exitCode !== null) {
        child.kill('SIGKILL');
        throw new Error(`moto_server did not start: ${String(err)}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  client.destroy();
  return {
    endpoint,
    bucket,
    region,
    credentials,
    close: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
