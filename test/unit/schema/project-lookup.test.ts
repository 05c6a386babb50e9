/** Project lookup by short or canonical name, including a short name shared by two connections. */
import type { Layout } from '../../../src/config/layout';
import { InvalidInputError, NotFoundError } from '../../../schema/infra/errors';
import { requireProject } from '../../../schema/project';
import { memoryLayout } from '../../helpers/memory-layout';

function layoutWithTwinProject(): Layout {
  const layout = memoryLayout([
    {
      name: 'config',
      trusted: true,
      branches: { master: { 'zuul.yaml': '- pipeline: {name: check, manager: independent, trigger: {}}\n' } },
    },
    { name: 'org/a', branches: { master: {} } },
  ]);
  const original = layout.projects.get('review.example.com/org/a');
  if (original === undefined) {
    throw new Error('fixture project missing');
  }
  // The same short name served by a second connection on another host.
  const twin = { ...original, canonicalName: 'git.other.example/org/a', connectionName: 'other' };
  return { ...layout, projects: new Map([...layout.projects, [twin.canonicalName, twin]]) };
}

describe('requireProject', () => {
  it('finds a project by short name when it is unique', () => {
    const layout = memoryLayout([{ name: 'org/a', branches: { master: {} } }]);
    expect(requireProject(layout, 'org/a').canonicalName).toBe('review.example.com/org/a');
  });

  it('finds projects by canonical name even when their short names clash', () => {
    const layout = layoutWithTwinProject();
    expect(requireProject(layout, 'review.example.com/org/a').connectionName).toBe('gerrit');
    expect(requireProject(layout, 'git.other.example/org/a').connectionName).toBe('other');
  });

  it('rejects an ambiguous short name with an InvalidInputError naming the way out', () => {
    const layout = layoutWithTwinProject();
    expect(() => requireProject(layout, 'org/a')).toThrow(
      new InvalidInputError('Project name org/a is ambiguous; use the canonical name', 'project'),
    );
  });

  it('answers `Unknown project` for a name no project has', () => {
    const layout = layoutWithTwinProject();
    expect(() => requireProject(layout, 'org/b')).toThrow(NotFoundError);
    expect(() => requireProject(layout, 'org/b')).toThrow('Unknown project');
  });
});
