import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import type { StorageConfig } from '../config.ts';
import type { ComponentStatus } from '../modules/health/component-status.ts';
import { assertValidStorageKey, type FileStorage, fileUrl } from './file-storage.ts';

type S3Config = Extract<StorageConfig, { driver: 's3' }>;

/**
 * Files in an S3 bucket (AWS, or any S3-compatible service via S3_ENDPOINT and
 * S3_FORCE_PATH_STYLE). Without explicit keys the SDK's default credential chain applies.
 */
export function createS3Storage(options: S3Config & { publicUrl: string }): FileStorage {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.forcePathStyle,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  const Bucket = options.bucket;

  return {
    driver: 's3',

    async put(key, body, contentType) {
      assertValidStorageKey(key);
      // PutObject needs a known length; files here are a few MB at most (the product spec §9), so a stream is
      // buffered rather than pulling in multipart uploads.
      const bytes = body instanceof Readable ? await collect(body) : body;
      await client.send(
        new PutObjectCommand({
          Bucket,
          Key: key,
          Body: bytes,
          ContentType: contentType,
          ContentLength: bytes.byteLength,
        }),
      );
      return { key, url: fileUrl(options.publicUrl, key), sizeBytes: bytes.byteLength };
    },

    async get(key) {
      assertValidStorageKey(key);
      try {
        const result = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!result.Body) return null;
        return {
          body: result.Body as Readable,
          contentType: result.ContentType ?? 'application/octet-stream',
          sizeBytes: result.ContentLength ?? 0,
        };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },

    async delete(key) {
      assertValidStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async exists(key) {
      assertValidStorageKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw error;
      }
    },

    urlFor: (key) => fileUrl(options.publicUrl, key),

    async health(): Promise<ComponentStatus> {
      const started = performance.now();
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return {
          status: 'up',
          driver: 's3',
          latencyMs: Math.round((performance.now() - started) * 100) / 100,
        };
      } catch (error) {
        const reason = error instanceof S3ServiceException ? error.name : (error as Error).name;
        return { status: 'down', driver: 's3', message: `Bucket ${Bucket} is not reachable (${reason})` };
      }
    },
  };
}

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404;
  }
  return false;
}

async function collect(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
