/**
 * Launcher objects of the tenant layout (docs/rest.md#launcher-objects): labels, flavors,
 * providers, images. Image build artifacts and uploads come from the store.
 */
import {
  RestFlavorsDocument,
  RestImagesDocument,
  RestLabelsDocument,
  RestProvidersDocument,
  type RestArtifactFieldsFragment,
} from '../generated/graphql';
import { arrayOf, bool, isoNaive as isoNaiveSchema, nullable, object, str, type JsonSchema } from '../json-schema';
import type { RestRoute } from '../route';
import { isoNaive, orNotFound } from '../wire';

const TENANT_404 = { 404: 'Tenant not found' };

const uploadSchema = object({
  uuid: str(),
  canonical_name: str(),
  artifact_uuid: str(),
  endpoint_name: str(),
  external_id: nullable(str()),
  timestamp: isoNaiveSchema(),
  validated: bool(),
  state: str(),
  state_time: isoNaiveSchema(),
  is_locked: bool(),
  lock_holder: nullable(str()),
});

const artifactSchema = object(
  {
    uuid: str(),
    canonical_name: str(),
    build_tenant: bool(),
    build_uuid: nullable(str()),
    format: str(),
    md5sum: nullable(str()),
    sha256: nullable(str()),
    url: nullable(str()),
    timestamp: isoNaiveSchema(),
    validated: bool(),
    state: nullable(str()),
    state_time: isoNaiveSchema(),
    is_locked: bool(),
    lock_holder: nullable(str()),
  },
  { uploads: arrayOf(uploadSchema, 'Present only when not empty') },
);

function mapArtifact(artifact: RestArtifactFieldsFragment): Record<string, unknown> {
  const uploads = artifact.uploads.map((upload) => ({
    uuid: upload.uuid,
    canonical_name: upload.canonicalName,
    artifact_uuid: upload.artifactUuid,
    endpoint_name: upload.endpointName,
    external_id: upload.externalId,
    timestamp: isoNaive(upload.timestamp),
    validated: upload.validated,
    state: upload.state.toLowerCase(),
    state_time: isoNaive(upload.stateTime),
    is_locked: upload.isLocked,
    lock_holder: upload.lockHolder,
  }));
  return {
    uuid: artifact.uuid,
    canonical_name: artifact.canonicalName,
    build_tenant: artifact.buildTenant,
    build_uuid: artifact.buildUuid,
    format: artifact.format,
    md5sum: artifact.md5sum,
    sha256: artifact.sha256,
    url: artifact.url,
    timestamp: isoNaive(artifact.timestamp),
    validated: artifact.validated,
    state: artifact.state === null ? null : artifact.state.toLowerCase(),
    state_time: isoNaive(artifact.stateTime),
    is_locked: artifact.isLocked,
    lock_holder: artifact.lockHolder,
    ...(uploads.length > 0 ? { uploads } : {}),
  };
}

/** `build_artifacts` only for images that have some (docs/rest.md#launcher-objects). */
const artifactsOf = (artifacts: RestArtifactFieldsFragment[]): Record<string, unknown> =>
  artifacts.length > 0 ? { build_artifacts: artifacts.map(mapArtifact) } : {};

const named = (extra: Record<string, JsonSchema> = {}): JsonSchema =>
  object({ name: str(), canonical_name: str(), ...extra });

const byName = <T extends { name: string }>(items: readonly T[]): T[] =>
  [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

export const labelsRoute: RestRoute = {
  name: 'labels',
  pattern: 'tenant/{tenant_name}/labels',
  endpoints: {
    GET: {
      summary: 'Node labels of the tenant',
      auth: 'public',
      operations: ['RestLabels'],
      responses: {
        current: {
          status: 200,
          schema: arrayOf(named({ description: nullable(str()) })),
          description: 'Labels of the layout, in config order',
        },
        earlier: { status: 200, schema: arrayOf(object({ name: str() })), description: 'Label names, sorted' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const labels = orNotFound(
          (await req.run(RestLabelsDocument, { tenant: req.params.tenant_name })).tenant,
          'Tenant not found',
        ).labels;
        if (req.shape === 'earlier') {
          return { body: byName(labels).map((label) => ({ name: label.name })) };
        }
        return {
          body: labels.map((label) => ({
            name: label.name,
            canonical_name: label.canonicalName,
            description: label.description,
          })),
        };
      },
    },
  },
};

export const flavorsRoute: RestRoute = {
  name: 'flavors',
  pattern: 'tenant/{tenant_name}/flavors',
  endpoints: {
    GET: {
      summary: 'Flavors of the tenant layout',
      auth: 'public',
      operations: ['RestFlavors'],
      responses: {
        current: { status: 200, schema: arrayOf(named({ description: nullable(str()) })), description: 'Flavors' },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const flavors = orNotFound(
          (await req.run(RestFlavorsDocument, { tenant: req.params.tenant_name })).tenant,
          'Tenant not found',
        ).flavors;
        return {
          body: flavors.map((flavor) => ({
            name: flavor.name,
            canonical_name: flavor.canonicalName,
            description: flavor.description,
          })),
        };
      },
    },
  },
};

export const providersRoute: RestRoute = {
  name: 'providers',
  pattern: 'tenant/{tenant_name}/providers',
  endpoints: {
    GET: {
      summary: 'Providers of the tenant with their images, labels and flavors',
      auth: 'public',
      operations: ['RestProviders'],
      responses: {
        current: {
          status: 200,
          schema: arrayOf(
            named({
              images: arrayOf(
                object(
                  { name: str(), canonical_name: str(), type: str() },
                  { build_artifacts: arrayOf(artifactSchema) },
                ),
              ),
              labels: arrayOf(named()),
              flavors: arrayOf(named()),
            }),
          ),
          description: 'Providers',
        },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const providers = orNotFound(
          (await req.run(RestProvidersDocument, { tenant: req.params.tenant_name })).tenant,
          'Tenant not found',
        ).providers;
        return {
          body: providers.map((provider) => ({
            name: provider.name,
            canonical_name: provider.canonicalName,
            images: provider.images.map((image) => ({
              name: image.name,
              canonical_name: image.canonicalName,
              type: image.type.toLowerCase(),
              ...artifactsOf(image.buildArtifacts),
            })),
            labels: provider.labels.map((label) => ({ name: label.name, canonical_name: label.canonicalName })),
            flavors: provider.flavors.map((flavor) => ({ name: flavor.name, canonical_name: flavor.canonicalName })),
          })),
        };
      },
    },
  },
};

export const imagesRoute: RestRoute = {
  name: 'images',
  pattern: 'tenant/{tenant_name}/images',
  endpoints: {
    GET: {
      summary: 'Images of the tenant layout with their build artifacts and uploads',
      auth: 'public',
      operations: ['RestImages'],
      responses: {
        current: {
          status: 200,
          schema: arrayOf(
            object(
              {
                name: str(),
                canonical_name: str(),
                project_canonical_name: str(),
                branch: str(),
                type: str('cloud or zuul'),
              },
              { build_artifacts: arrayOf(artifactSchema, 'Present only when the image has artifacts') },
            ),
          ),
          description: 'Images',
        },
      },
      errors: TENANT_404,
      handler: async (req) => {
        const images = orNotFound(
          (await req.run(RestImagesDocument, { tenant: req.params.tenant_name })).tenant,
          'Tenant not found',
        ).images;
        return {
          body: images.map((image) => ({
            name: image.name,
            canonical_name: image.canonicalName,
            project_canonical_name: image.projectCanonicalName,
            branch: image.branch,
            type: image.type.toLowerCase(),
            ...artifactsOf(image.buildArtifacts),
          })),
        };
      },
    },
  },
};
