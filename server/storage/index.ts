export type { ByteRange, FileStore } from './files.js';
export { LocalFileStore } from './local.js';
export { S3FileStore, type S3StoreConfig } from './s3.js';
