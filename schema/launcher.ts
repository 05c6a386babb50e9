/**
 * Launcher objects of a tenant's layout: labels, flavors, images (with their build artifacts and
 * uploads from the store) and providers.
 */
import type {
  Flavor as FlavorValue,
  Image as ImageValue,
  Label as LabelValue,
  Layout,
  Provider as ProviderValue,
} from '../src/config/layout';
import type { ImageBuildArtifactRecord, ImageUploadRecord } from '../src/store/repositories/image-artifacts';
import { builder } from './infra/builder';
import { layoutStore, tenantLayout } from './infra/layout-store';
import { SourceContext } from './source-context';
import { Tenant } from './tenant';

interface ImageView {
  image: ImageValue;
  tenant: string;
}

interface ArtifactView {
  record: ImageBuildArtifactRecord;
  tenant: string;
}

interface ProviderView {
  provider: ProviderValue;
  layout: Layout;
}

const ARTIFACT_STATES = ['ready', 'deleting'] as const;
const UPLOAD_STATES = ['pending', 'uploading', 'ready', 'deleting'] as const;

/** A stored state as one of the closed set of values; an unknown value is a data error. */
function knownState<S extends string>(states: readonly S[], value: string, what: string): S {
  const state = states.find((s) => s === value);
  if (state === undefined) {
    throw new Error(`Unknown ${what} state "${value}"`);
  }
  return state;
}

export const ImageType = builder.enumType('ImageType', {
  description: 'Where an image comes from.',
  values: {
    ZUUL: {
      value: 'zuul',
      description: 'Built by an image-build job of the tenant and uploaded to provider endpoints.',
    },
    CLOUD: { value: 'cloud', description: 'Provided by the cloud itself.' },
  } as const,
});

export const ImageBuildArtifactState = builder.enumType('ImageBuildArtifactState', {
  description: 'Life of an image build artifact.',
  values: {
    READY: { value: 'ready', description: 'Usable; uploads may be made from it.' },
    DELETING: { value: 'deleting', description: 'Being deleted.' },
  } as const,
});

export const ImageUploadState = builder.enumType('ImageUploadState', {
  description: 'Life of an upload of an image build artifact to a provider endpoint.',
  values: {
    PENDING: { value: 'pending', description: 'Waiting to be uploaded.' },
    UPLOADING: { value: 'uploading', description: 'Being uploaded.' },
    READY: { value: 'ready', description: 'Uploaded and usable by the provider.' },
    DELETING: { value: 'deleting', description: 'Being deleted.' },
  } as const,
});

const ImageUpload = builder.objectRef<ImageUploadRecord>('ImageUpload').implement({
  description: 'An image build artifact uploaded to one provider endpoint.',
  fields: (t) => ({
    uuid: t.exposeString('uuid', { nullable: false, description: 'Uuid of the upload.' }),
    canonicalName: t.exposeString('canonicalName', { nullable: false, description: 'Canonical name of the image.' }),
    artifactUuid: t.exposeString('artifactUuid', { nullable: false, description: 'Uuid of the uploaded artifact.' }),
    endpointName: t.exposeString('endpointName', {
      nullable: false,
      description: 'Provider endpoint the artifact is uploaded to.',
    }),
    externalId: t.string({
      description: 'Id of the image at the provider (e.g. an AMI id); null until known.',
      resolve: (u) => u.externalId,
    }),
    timestamp: t.expose('timestamp', {
      type: 'DateTime',
      nullable: false,
      description: 'When the upload was created.',
    }),
    validated: t.exposeBoolean('validated', { nullable: false, description: 'True once the upload was validated.' }),
    state: t.field({
      type: ImageUploadState,
      nullable: false,
      description: 'Where the upload is in its life.',
      resolve: (u) => knownState(UPLOAD_STATES, u.state, 'image upload'),
    }),
    stateTime: t.expose('stateTime', {
      type: 'DateTime',
      nullable: false,
      description: 'When the state last changed.',
    }),
    isLocked: t.boolean({
      nullable: false,
      description: 'True while a component works on the upload.',
      resolve: (u) => u.lockHolder !== null,
    }),
    lockHolder: t.string({
      description: 'Component holding the lock; null when unlocked.',
      resolve: (u) => u.lockHolder,
    }),
  }),
});

const ImageBuildArtifact = builder.objectRef<ArtifactView>('ImageBuildArtifact').implement({
  description: 'A disk image produced by an image-build job.',
  fields: (t) => ({
    uuid: t.string({ nullable: false, description: 'Uuid of the artifact.', resolve: (a) => a.record.uuid }),
    canonicalName: t.string({
      nullable: false,
      description: 'Canonical name of the image.',
      resolve: (a) => a.record.canonicalName,
    }),
    buildTenant: t.boolean({
      nullable: false,
      description: "True when this tenant's image-build job produced the artifact (only that tenant may delete it).",
      resolve: (a) => a.record.tenant === a.tenant,
    }),
    buildUuid: t.string({ description: 'Uuid of the build that produced it.', resolve: (a) => a.record.buildUuid }),
    format: t.string({ nullable: false, description: 'Disk format (qcow2, raw...).', resolve: (a) => a.record.format }),
    md5sum: t.string({ description: 'MD5 checksum of the file.', resolve: (a) => a.record.md5sum }),
    sha256: t.string({ description: 'SHA-256 checksum of the file.', resolve: (a) => a.record.sha256 }),
    url: t.string({ description: 'Where the file can be downloaded.', resolve: (a) => a.record.url }),
    timestamp: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the artifact was created.',
      resolve: (a) => a.record.timestamp,
    }),
    validated: t.boolean({
      nullable: false,
      description: 'True once the artifact was validated.',
      resolve: (a) => a.record.validated,
    }),
    state: t.field({
      type: ImageBuildArtifactState,
      description: 'Where the artifact is in its life.',
      resolve: (a) =>
        a.record.state === null ? null : knownState(ARTIFACT_STATES, a.record.state, 'image build artifact'),
    }),
    stateTime: t.field({
      type: 'DateTime',
      nullable: false,
      description: 'When the state last changed.',
      resolve: (a) => a.record.stateTime,
    }),
    isLocked: t.boolean({
      nullable: false,
      description: 'True while a component works on the artifact.',
      resolve: (a) => a.record.lockHolder !== null,
    }),
    lockHolder: t.string({
      description: 'Component holding the lock; null when unlocked.',
      resolve: (a) => a.record.lockHolder,
    }),
    uploads: t.field({
      type: [ImageUpload],
      nullable: false,
      description: 'Uploads of the artifact, oldest first.',
      resolve: (a) => a.record.uploads,
    }),
  }),
});

/** Loader key of an image's artifacts: they are listed per tenant to compute `buildTenant`. */
function artifactKey(view: ImageView): string {
  return `${view.tenant}\u0000${view.image.canonicalName}`;
}

function parseArtifactKey(key: string): { tenant: string; name: string } {
  const at = key.indexOf('\u0000');
  return { tenant: key.slice(0, at), name: key.slice(at + 1) };
}

export const Image = builder.objectRef<ImageView>('Image').implement({
  description: 'An image labels are built from.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Name of the image.', resolve: (i) => i.image.name }),
    canonicalName: t.string({
      nullable: false,
      description: '`<url-quoted project canonical name>/<url-quoted image name>`.',
      resolve: (i) => i.image.canonicalName,
    }),
    projectCanonicalName: t.string({
      nullable: false,
      description: 'Canonical name of the defining project.',
      resolve: (i) => i.image.sourceContext.projectCanonicalName,
    }),
    branch: t.string({
      nullable: false,
      description: 'Branch of the definition.',
      resolve: (i) => i.image.sourceContext.branch,
    }),
    type: t.field({
      type: ImageType,
      nullable: false,
      description: 'Where the image comes from.',
      resolve: (i) => i.image.type,
    }),
    description: t.string({
      description: 'Description written in configuration.',
      resolve: (i) => i.image.description ?? null,
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the image is defined.',
      resolve: (i) => i.image.sourceContext,
    }),
    buildArtifacts: t.loadableList({
      type: ImageBuildArtifact,
      nullable: false,
      description:
        "Build artifacts of the image (any tenant's builds), oldest first, each with its uploads; empty for cloud images.",
      load: async (keys: string[], ctx): Promise<ArtifactView[][]> => {
        const parsed = keys.map(parseArtifactKey);
        const byImage = await layoutStore(ctx).imageArtifacts.byImage([...new Set(parsed.map((key) => key.name))]);
        return parsed.map(({ tenant, name }) => (byImage.get(name) ?? []).map((record) => ({ record, tenant })));
      },
      resolve: artifactKey,
    }),
  }),
});

export const Flavor = builder.objectRef<FlavorValue>('Flavor').implement({
  description: 'A size of node (CPU, memory) providers offer.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the flavor.' }),
    canonicalName: t.exposeString('canonicalName', {
      nullable: false,
      description: '`<url-quoted project canonical name>/<url-quoted flavor name>`.',
    }),
    description: t.string({
      description: 'Description written in configuration.',
      resolve: (f) => f.description ?? null,
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the flavor is defined.',
      resolve: (f) => f.sourceContext,
    }),
  }),
});

export const Label = builder.objectRef<LabelValue>('Label').implement({
  description: 'A kind of node jobs can ask for: an image on a flavor.',
  fields: (t) => ({
    name: t.exposeString('name', { nullable: false, description: 'Name of the label.' }),
    canonicalName: t.exposeString('canonicalName', {
      nullable: false,
      description: '`<url-quoted project canonical name>/<url-quoted label name>`.',
    }),
    description: t.string({
      description: 'Description written in configuration.',
      resolve: (l) => l.description ?? null,
    }),
    image: t.exposeString('image', { nullable: false, description: 'Name of the image.' }),
    flavor: t.exposeString('flavor', { nullable: false, description: 'Name of the flavor.' }),
    minReady: t.int({
      nullable: false,
      description: 'Nodes kept ready in advance (0 = none).',
      resolve: (l) => l.minReady ?? 0,
    }),
    maxReadyAge: t.int({
      nullable: false,
      description: 'Seconds a ready node may wait before being replaced (0 = forever).',
      resolve: (l) => l.maxReadyAge ?? 0,
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the label is defined.',
      resolve: (l) => l.sourceContext,
    }),
  }),
});

/** Layout objects a provider's flattened entries refer to by name, in the provider's order. */
function referenced<T>(entries: ReadonlyArray<{ name: string }>, objects: ReadonlyMap<string, T>): T[] {
  return entries.flatMap((entry) => {
    const object = objects.get(entry.name);
    return object === undefined ? [] : [object];
  });
}

const Provider = builder.objectRef<ProviderView>('Provider').implement({
  description: 'A provider of nodes (a cloud region or a static pool), flattened over its sections.',
  fields: (t) => ({
    name: t.string({ nullable: false, description: 'Name of the provider.', resolve: (p) => p.provider.name }),
    canonicalName: t.string({
      nullable: false,
      description: '`<url-quoted project canonical name>/<url-quoted provider name>`.',
      resolve: (p) => p.provider.canonicalName,
    }),
    section: t.string({
      nullable: false,
      description: 'Section the provider is based on.',
      resolve: (p) => p.provider.section,
    }),
    connection: t.string({
      description: 'Connection of the provider, when set.',
      resolve: (p) => p.provider.connection ?? null,
    }),
    images: t.field({
      type: [Image],
      nullable: false,
      description:
        "Images the provider offers (their build artifacts are not yet narrowed to this provider's uploads).",
      resolve: (p) =>
        referenced(p.provider.images, p.layout.images).map((image) => ({ image, tenant: p.layout.tenantName })),
    }),
    labels: t.field({
      type: [Label],
      nullable: false,
      description: 'Labels the provider offers.',
      resolve: (p) => referenced(p.provider.labels, p.layout.labels),
    }),
    flavors: t.field({
      type: [Flavor],
      nullable: false,
      description: 'Flavors the provider offers.',
      resolve: (p) => referenced(p.provider.flavors, p.layout.flavors),
    }),
    sourceContext: t.field({
      type: SourceContext,
      nullable: false,
      description: 'Where the provider is defined.',
      resolve: (p) => p.provider.sourceContext,
    }),
  }),
});

builder.objectFields(Tenant, (t) => ({
  labels: t.field({
    type: [Label],
    nullable: false,
    description: 'Labels of the tenant layout, in configuration order.',
    resolve: (tenant, _args, ctx) => [...tenantLayout(ctx, tenant.name).labels.values()],
  }),
  flavors: t.field({
    type: [Flavor],
    nullable: false,
    description: 'Flavors of the tenant layout, in configuration order.',
    resolve: (tenant, _args, ctx) => [...tenantLayout(ctx, tenant.name).flavors.values()],
  }),
  images: t.field({
    type: [Image],
    nullable: false,
    description: 'Images of the tenant layout, in configuration order.',
    resolve: (tenant, _args, ctx) =>
      [...tenantLayout(ctx, tenant.name).images.values()].map((image) => ({ image, tenant: tenant.name })),
  }),
  providers: t.field({
    type: [Provider],
    nullable: false,
    description: 'Providers of the tenant layout, in configuration order.',
    resolve: (tenant, _args, ctx) => {
      const layout = tenantLayout(ctx, tenant.name);
      return [...layout.providers.values()].map((provider) => ({ provider, layout }));
    },
  }),
}));
