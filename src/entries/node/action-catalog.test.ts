import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../agent/tabpilot-config';
import { actionCatalog } from './action-catalog';
import { composeNodeSession } from './compose';

describe('the action catalog the build writes for the CLI', () => {
  it('is exactly what describe answers, action for action (so the CLI never needs describe)', () => {
    const { session, server } = composeNodeSession({ config: defaultConfig() });
    try {
      const described = (server.describe() as { actions: unknown[] }).actions;
      const catalog = actionCatalog();
      expect(catalog.map((action) => action.name)).toEqual(
        described.map((action) => (action as { name: string }).name),
      );
      expect(catalog).toEqual(described);
    } finally {
      session.dispose();
    }
  });
});
