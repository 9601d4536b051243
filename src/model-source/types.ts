// The types the modules of model-source share (the remote URI, an object store, a classified
// failure), in a module of their own so that the modules using them never import each other for a
// type.
import type { Readable } from 'node:stream';

export type RemoteScheme = 's3' | 'gs';

export interface RemoteModel {
  scheme: RemoteScheme;
  bucket: string;
  /** Key prefix of the version folder: '' (bucket root) or segments ending in '/'. */
  prefix: string;
  /** The URI in canonical form, ending in '/'. */
  uri: string;
}

export type FailureKind = 'no_object' | 'no_bucket' | 'credentials' | 'region' | 'denied' | 'network' | 'other';

export interface Failure {
  kind: FailureKind;
  /** The client's own words, for the message. */
  detail: string;
}

export interface FailureContext {
  scheme: RemoteScheme;
  /** The model URI (the version folder). */
  uri: string;
  bucket: string;
  /** The object being read, as a URI; absent for listing. */
  object?: string;
  /** The object is the manifest (a missing manifest means a wrong folder, not a partial upload). */
  isManifest?: boolean;
  /** Where the client sends requests, for network errors. */
  endpoint: string;
  /** Version folders seen near the URI, to suggest when the manifest is missing. */
  nearby?: { parent: string; folders: string[] };
}

/**
 * What the downloader needs from an object store: read one object as a stream, list the folders
 * under a prefix (only to suggest a version folder when the manifest is missing), and classify the
 * client's errors.
 */
export interface ObjectSource {
  /** Where requests go, for messages: the endpoint URL, or the name of the cloud service. */
  readonly endpoint: string;
  /** The object's bytes. A failure may reject here or surface later as an error of the stream. */
  read(key: string): Promise<Readable>;
  /** Names (ending in '/') of the folders directly under `prefix`. */
  listFolders(prefix: string): Promise<string[]>;
  classify(err: unknown): Failure;
  close(): void;
}
