import { buildFixtureRepos, fixtureTenantFile } from './test/helpers/config-fixtures';
import { loadTenantLayout } from './src/config/load-tenants';
(async () => {
  const dir = process.argv[2];
  const repos = await buildFixtureRepos(dir);
  const tf = fixtureTenantFile(dir, repos.connections);
  console.log('problems', JSON.stringify(tf.problems));
  for (const t of tf.abide.tenants) {
    const layout = await loadTenantLayout(t, tf.abide, tf.problems, repos.connections);
    console.log('TENANT', t.name, [...layout.jobs.keys()].join(','), '|', [...layout.pipelines.keys()].join(','), '|', [...layout.nodesets.keys()].join(','));
    for (const e of layout.errors) console.log(`- {name: ${JSON.stringify(e.name)}, severity: ${e.severity}, project: ${e.sourceContext?.projectName ?? null}, branch: ${e.sourceContext?.branch ?? null}, path: ${e.sourceContext?.path ?? null}, line: ${e.line ?? null}, contains: ${JSON.stringify(e.shortError.slice(0, 70))}}`);
    if (process.argv[3] === 'full') for (const e of layout.errors) console.log(e.error);
  }
  repos.cleanup();
})();
