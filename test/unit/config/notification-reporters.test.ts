/**
 * The SMTP and MQTT reporters' pipeline options (docs/reporters.md): their keys are checked by
 * the configuration loader's rules, and a bad one is a configuration error naming it.
 */
import { validateReporter } from '../../../src/config/drivers';
import type { ConfigObjectError } from '../../../src/config/config-error';

function errorOf(driver: string, options: unknown): string | null {
  try {
    validateReporter(driver, options, 'success', [] as ConfigObjectError[]);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('notification reporter options', () => {
  it('smtp: to, from and subject strings', () => {
    expect(errorOf('smtp', { to: 'a@example.com', from: 'b@example.com', subject: '{change}' })).toBeNull();
    expect(errorOf('smtp', {})).toBeNull();
    expect(errorOf('smtp', { cc: 'a@example.com' })).toMatch(/cc/);
    expect(errorOf('smtp', { to: ['a@example.com'] })).toMatch(/expected str .*'to'/);
  });

  it('mqtt: a topic, qos 0 to 2 and include-returned-data', () => {
    expect(errorOf('mqtt', { topic: 'zuul/{tenant}', qos: 2, 'include-returned-data': true })).toBeNull();
    expect(errorOf('mqtt', { qos: 1 })).toMatch(/topic/);
    expect(errorOf('mqtt', { topic: 't', qos: 3 })).toMatch(/qos must be 0, 1 or 2/);
    expect(errorOf('mqtt', { topic: 't', 'include-returned-data': 'yes' })).toMatch(/include-returned-data/);
  });
});
