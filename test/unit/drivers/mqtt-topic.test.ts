/** The MQTT reporter's topic (docs/reporters.md#mqtt): the template filled in, MQTT's wildcards replaced. */
import type { ItemReport } from '../../../src/engine/ports/reporter';
import { refChange } from '../../../src/model/changes';
import { mqttTopic } from '../../../src/drivers/mqtt/message';

function report(branch: string): ItemReport {
  const change = { ...refChange('review.example.com/org/app', `refs/heads/${branch}`, null, 'a'.repeat(40)) };
  return {
    tenant: 'acme',
    pipeline: 'post',
    phase: 'success',
    change,
    buildsetUuid: 'b',
    message: '',
    result: 'SUCCESS',
    jobs: [],
    reporters: [],
  };
}

describe('mqttTopic', () => {
  it('fills in the template', () => {
    expect(mqttTopic('zuul/{tenant}/{pipeline}/{project}/{branch}', report('main'))).toBe(
      'zuul/acme/post/org/app/main',
    );
  });

  it('replaces the wildcards + and # (in the values and the template) by _, as the reference does', () => {
    expect(mqttTopic('zuul/#/{branch}', report('feature+x#1'))).toBe('zuul/_/feature_x_1');
  });
});
