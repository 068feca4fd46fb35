export type { ByteRange, FileStore } from './files.js';
export { LocalFileStore } from './local.js';
export type { S3StoreConfig } from './s3.js';
