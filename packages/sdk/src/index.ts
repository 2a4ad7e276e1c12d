export { Ces, type CesOptions, type ClientCredentialsOptions, type TokenOptions } from './client.ts';
export { type Download, type DownloadRequest, filenameOf } from './download.ts';
export * from './errors.ts';
export type { paths } from './generated/openapi.ts';
export type { SearchFields } from './generated/search-fields.ts';
export type { Connectors, ContextStoreStage, Definitions, Workspaces } from './resources.ts';
export * from './search.ts';
export type * from './types.ts';
