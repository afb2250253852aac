import { z } from 'zod';
import { Meta, openUnion, opt, type Unknown } from './lenient';

/** DIGEST §10. */
const Annotations = opt(
  z.looseObject({
    audience: opt(z.array(z.string())),
    lastModified: opt(z.string()),
    priority: opt(z.number()),
  }),
);

export const TextContent = z.looseObject({ type: z.literal('text'), text: z.string(), annotations: Annotations, _meta: Meta });
export const ImageContent = z.looseObject({
  type: z.literal('image'),
  data: z.string(),
  mimeType: z.string(),
  uri: opt(z.string()),
  annotations: Annotations,
  _meta: Meta,
});
export const AudioContent = z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations: Annotations, _meta: Meta });
export const ResourceLink = z.looseObject({
  type: z.literal('resource_link'),
  uri: z.string(),
  name: z.string(),
  title: opt(z.string()),
  description: opt(z.string()),
  mimeType: opt(z.string()),
  size: opt(z.number()),
  annotations: Annotations,
  _meta: Meta,
});
/** Text and blob resources are told apart by which key is present. */
const EmbeddedResourceBody = z.union([
  z.looseObject({ uri: z.string(), text: z.string(), mimeType: opt(z.string()), _meta: Meta }),
  z.looseObject({ uri: z.string(), blob: z.string(), mimeType: opt(z.string()), _meta: Meta }),
]);
export const EmbeddedResource = z.looseObject({ type: z.literal('resource'), resource: EmbeddedResourceBody, annotations: Annotations, _meta: Meta });

export const ContentBlock = openUnion('type', {
  text: TextContent,
  image: ImageContent,
  audio: AudioContent,
  resource_link: ResourceLink,
  resource: EmbeddedResource,
});

export type TextContent = z.output<typeof TextContent>;
export type ResourceLink = z.output<typeof ResourceLink>;
export type ContentBlock = z.output<typeof ContentBlock>;
export type KnownContentBlock = Exclude<ContentBlock, Unknown>;
