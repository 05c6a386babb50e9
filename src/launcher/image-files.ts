/**
 * Image files: fetch an image build artifact by URL (`file://`, an absolute path, or HTTP(S)) into
 * a local file while computing its MD5 and SHA-256, so a recorded artifact's checksums are the
 * checksums of the bytes actually produced.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { fileURLToPath } from 'node:url';

export interface FileDigest {
  md5sum: string;
  sha256: string;
  size: number;
}

async function openSource(url: string): Promise<Readable> {
  if (url.startsWith('file://')) {
    return createReadStream(fileURLToPath(url));
  }
  if (path.isAbsolute(url)) {
    return createReadStream(url);
  }
  if (/^https?:\/\//i.test(url)) {
    const response = await fetch(url);
    if (!response.ok || response.body === null) {
      throw new Error(`GET ${url} answered ${response.status}`);
    }
    // The DOM and node:stream/web stream types differ only in typing.
    return Readable.fromWeb(response.body as unknown as NodeReadableStream<Uint8Array>);
  }
  throw new Error(`Unsupported image URL ${url} (use file://, an absolute path or http(s)://)`);
}

function digestingStream(digest: FileDigest): Transform {
  const md5 = createHash('md5');
  const sha = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      md5.update(chunk);
      sha.update(chunk);
      digest.size += chunk.length;
      callback(null, chunk);
    },
    flush(callback) {
      digest.md5sum = md5.digest('hex');
      digest.sha256 = sha.digest('hex');
      callback();
    },
  });
}

/** Checksums of the file behind a URL. */
export async function digestUrl(url: string): Promise<FileDigest> {
  const digest: FileDigest = { md5sum: '', sha256: '', size: 0 };
  const source = await openSource(url);
  await pipeline(source, digestingStream(digest), new Writable({ write: (_chunk, _encoding, callback) => callback() }));
  return digest;
}

/** Download a URL to `destination` (atomically: a temporary name, then rename); returns its checksums. */
export async function downloadTo(url: string, destination: string): Promise<FileDigest> {
  await mkdir(path.dirname(destination), { recursive: true });
  const temporary = `${destination}.part`;
  const digest: FileDigest = { md5sum: '', sha256: '', size: 0 };
  try {
    const source = await openSource(url);
    await pipeline(source, digestingStream(digest), createWriteStream(temporary));
    await rename(temporary, destination);
  } catch (err) {
    await rm(temporary, { force: true });
    throw err;
  }
  return digest;
}
