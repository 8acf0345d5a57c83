import { describe, expect, it } from 'vitest';
import { ACTIONS } from '../../protocol/actions';
import { z } from 'zod';
import { createDefaultRegistry } from '../actions';
import { describeServerAction, type ServerActionSpec } from '../server-action';
import { BATCH_ACTION } from '../batch-action';
import { actionsOnFocusedTab, buildToolCatalog } from './tool-catalog';

const described = createDefaultRegistry().describe();

describe('the MCP tool catalog', () => {
  it('offers every action a program may use, in the actions’ order, each titled where its title says more than its name', () => {
    const tools = buildToolCatalog(described);
    expect(tools.map((tool) => tool.name)).toEqual(
      ACTIONS.filter((action) => action.personOnly !== 'always').map((action) => action.name),
    );
    // Recording what the person does is theirs alone: no program is offered it.
    expect(tools.map((tool) => tool.name)).not.toContain('record_start');
    expect(tools.map((tool) => tool.name)).not.toContain('record_stop');
    // A title is the declaration's own words; one that only says the name ("Go back" for go_back) is left
    // out, and a client shows the name.
    for (const tool of tools) {
      const title = ACTIONS.find((action) => action.name === tool.name)?.title ?? '';
      const onlyTheName = title.toLowerCase() === tool.name.replaceAll('_', ' ');
      expect(tool.title, tool.name).toBe(onlyTheName ? undefined : title);
    }
    expect(tools.find((tool) => tool.name === 'go_back')).not.toHaveProperty('title');
    expect(tools.find((tool) => tool.name === 'navigate')?.title).toBe('Open a URL');
    const titles = tools.flatMap((tool) => (tool.title === undefined ? [] : [tool.title]));
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('leaves out the title of a server action titled by its own name (pause_run), and keeps one that says more', () => {
    // As the agent's pause_run is declared: no title of its own.
    const pauseRun: ServerActionSpec = {
      name: 'pause_run',
      summary: "Pause the agent's run.",
      description: "Pause the agent's run.",
      params: z.strictObject({ run_id: z.string() }),
      category: 'session',
      hints: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
    };
    const [pause, batch] = buildToolCatalog([describeServerAction(pauseRun), describeServerAction(BATCH_ACTION)]);
    expect(pause?.name).toBe('pause_run');
    expect(pause).not.toHaveProperty('title');
    expect(batch?.title).toBe('Run several actions');
  });

  it('carries each action’s hints as its annotations, its summary as the description, and its params as the input schema', () => {
    for (const tool of buildToolCatalog(described)) {
      const action = ACTIONS.find((candidate) => candidate.name === tool.name);
      // A hint left out means the MCP spec's default: read-only false, destructive true, idempotent
      // false, open world true; each one a client reads is the action's own.
      // Destructive and idempotent mean something only for a tool that is not read-only.
      const read = tool.annotations ?? {};
      const readOnly = read.readOnlyHint ?? false;
      expect(readOnly).toBe(action?.hints.readOnly);
      expect(read.openWorldHint ?? true).toBe(action?.hints.openWorld);
      if (readOnly) {
        expect(read).not.toHaveProperty('destructiveHint');
        expect(read).not.toHaveProperty('idempotentHint');
      } else {
        expect(read.destructiveHint ?? true).toBe(action?.hints.destructive);
        expect(read.idempotentHint ?? false).toBe(action?.hints.idempotent);
      }
      expect(tool.description).toBe(action?.summary);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema).not.toHaveProperty('$schema');
    }
  });

  it('drops the safe-integer bounds zod writes, and keeps every real bound', () => {
    const text = JSON.stringify(buildToolCatalog(described));
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    const state = buildToolCatalog(described).find((tool) => tool.name === 'state');
    expect(state?.inputSchema['properties']).toMatchObject({ viewport_expansion: { minimum: -1 } });
    expect(JSON.stringify(state?.outputSchema)).not.toContain(String(Number.MAX_SAFE_INTEGER));
  });

  it('picks categories, the slim set and leaves out hidden tools, keeping the order', () => {
    const tabs = buildToolCatalog(described, { categories: new Set(['tabs']) });
    expect(tabs.map((tool) => tool.name)).toEqual(['tabs', 'switch', 'close', 'attach', 'release']);
    const slim = buildToolCatalog(described, { slim: true });
    expect(slim.map((tool) => tool.name)).toEqual(['navigate', 'state', 'click', 'input', 'scroll', 'send_keys']);
    const hidden = buildToolCatalog(described, { hidden: new Set(['evaluate']) });
    expect(hidden.map((tool) => tool.name)).not.toContain('evaluate');
    expect(hidden).toHaveLength(buildToolCatalog(described).length - 1);
  });

  it('is much smaller slim, for small context windows', () => {
    const full = JSON.stringify(buildToolCatalog(described)).length;
    const slim = JSON.stringify(buildToolCatalog(described, { slim: true })).length;
    expect(slim).toBeLessThan(full / 3);
  });

  it('names the actions that default to the focused tab, not attach or release', () => {
    const focused = actionsOnFocusedTab(ACTIONS);
    expect(focused.has('click')).toBe(true);
    expect(focused.has('state')).toBe(true);
    for (const name of ['attach', 'release', 'tabs', 'wait', 'stop', 'switch', 'close']) {
      expect(focused.has(name), name).toBe(false);
    }
  });
});
