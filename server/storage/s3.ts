import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { ByteRange, FileStore } from './files.js';

/**
 * An S3-compatible bucket. Without `credentials` they come from the AWS SDK's own sources
 * (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role): the command line
 * never carries them.
 */
export interface S3StoreConfig {
  bucket: string;
  /** Every key starts with it (e.g. `parley/`), so one bucket can hold several deployments. */
  prefix?: string | undefined;
  region?: string | undefined;
  /** An S3-compatible server's URL (MinIO, Ceph, …); none: AWS itself. */
  endpoint?: string | undefined;
  /** Bucket in the path instead of the host name, as most S3-compatible servers want. */
  forcePathStyle?: boolean | undefined;
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/**
 * Attachments in S3-compatible object storage, which every process and machine of a deployment
 * shares. An object appears whole when its PutObject succeeds, or not at all.
 */
export class S3FileStore implements FileStore {
  readonly describe: string;
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(private readonly config: S3StoreConfig) {
    this.prefix = config.prefix ?? '';
    this.describe = `s3:${config.bucket}/${this.prefix}`;
    this.client = new S3Client({
      region: config.region ?? 'us-east-1',
      ...(config.endpoint === undefined ? {} : { endpoint: config.endpoint }),
      forcePathStyle: config.forcePathStyle ?? config.endpoint !== undefined,
      ...(config.credentials === undefined ? {} : { credentials: config.credentials }),
    });
  }

  async put(key: string, body: Uint8Array, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: this.prefix + key,
        Body: body,
        ContentType: contentType,
        ContentLength: body.byteLength,
      }),
    );
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: this.prefix + key }),
      );
      return head.ContentLength;
    } catch (error) {
      if (error instanceof NotFound || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({
        Bucket: this.config.bucket,
        Key: this.prefix + key,
        ...(range === undefined ? {} : { Range: `bytes=${range.start}-${range.end}` }),
      }),
    );
    if (!(object.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
    return object.Body;
  }

  async deleteFolder(prefix: string): Promise<void> {
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.config.bucket,
          Prefix: this.prefix + prefix,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.config.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  close(): void {
    this.client.destroy();
  }
}
