/** Where a configuration object was defined: project, branch and file. */
import type { SourceContext as SourceContextValue } from '../src/config/layout';
import { builder } from './infra/builder';

export const SourceContext = builder.objectRef<SourceContextValue>('SourceContext').implement({
  description: 'The project, branch and file a configuration object was read from.',
  fields: (t) => ({
    project: t.exposeString('projectName', {
      nullable: false,
      description: 'Short name of the project (`org/project`).',
    }),
    projectCanonicalName: t.exposeString('projectCanonicalName', {
      nullable: false,
      description: 'Canonical name of the project (`hostname/org/project`).',
    }),
    connectionName: t.exposeString('connectionName', {
      nullable: false,
      description: 'Connection the project belongs to.',
    }),
    branch: t.exposeString('branch', { nullable: false, description: 'Branch the file was read from.' }),
    path: t.exposeString('path', { nullable: false, description: 'Path of the file inside the repository.' }),
    trusted: t.exposeBoolean('trusted', {
      nullable: false,
      description: 'True when the project is a config (trusted) project.',
    }),
  }),
});
