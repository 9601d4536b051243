// The media types a document's `content` may have (the OpenAPI enum of DocumentContent.media_type).
export const CONTENT_MEDIA_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export type MediaType = (typeof CONTENT_MEDIA_TYPES)[number];
