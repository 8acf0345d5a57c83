import { describe, expect, it } from 'vitest';
import { memoryStore } from '../../../../test/fakes/memory-store';
import { AgentKeyStore } from './agent-keys';

describe('AgentKeyStore', () => {
  it('keeps one key per provider, tells only whether each is set, and forgets one saved empty', async () => {
    const storage = memoryStore();
    const keys = new AgentKeyStore(storage);
    await keys.load();
    expect(keys.present()).toEqual({ openai: false, anthropic: false });
    await keys.set('anthropic', '  sk-ant-123  ');
    expect(keys.key('anthropic')).toBe('sk-ant-123');
    expect(keys.key('openai')).toBeNull();
    expect(keys.present()).toEqual({ openai: false, anthropic: true });
    expect(keys.secrets()).toEqual([{ name: 'anthropic_api_key', value: 'sk-ant-123' }]);
    await keys.set('anthropic', '');
    expect(keys.present()).toEqual({ openai: false, anthropic: false });
    expect(storage.data['tabpilot.agent_keys']).toEqual({});
  });

  it('reads the keys back after a restart and ignores a saved value that does not parse', async () => {
    const storage = memoryStore();
    const first = new AgentKeyStore(storage);
    await first.set('openai', 'sk-1');
    const again = new AgentKeyStore(storage);
    await again.load();
    expect(again.key('openai')).toBe('sk-1');
    const broken = new AgentKeyStore(memoryStore({ 'tabpilot.agent_keys': { openai: 42 } }));
    await broken.load();
    expect(broken.present()).toEqual({ openai: false, anthropic: false });
  });
});
