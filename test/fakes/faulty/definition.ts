// The connector type the faulty server stands for: one bearer token, a list, a create and a POST search.
import { parseDefinition } from '../../../src/connectors/load.ts';
import type { ConnectorDefinition } from '../../../src/connectors/schema.ts';

/** `extra` is spliced in at the top level (retry, limits). */
export function faultyDefinition(extra = ''): ConnectorDefinition {
  const yaml = `
id: 7c0e4d52-5b7a-4f55-9d0e-3a1f2b4c6d8e
slug: faulty
name: Faulty
icon_url: https://faulty.example/icon.svg
support_level: none
documentation_url: https://faulty.example/docs
base_url: https://api.faulty.example
credential_options:
  - title: Token
    description: Bearer token.
    fields:
      token: { type: string, title: Token, description: The token., secret: true }
    required: [token]
    auth: { type: bearer, token: "{token}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
errors:
  expose_body_keys: [message]
${extra}
entities:
  - name: items
    description: Items.
    primary_key: [id]
    actions:
      list:
        description: All items.
        request: { method: GET, path: /items }
        record_selector: [items]
      create:
        description: New item.
        params:
          title: { type: string, required: true, description: Title. }
        request: { method: POST, path: /items }
      api_search:
        description: Read-only search sent as a POST.
        params:
          query: { type: string, required: true, description: Query. }
        request: { method: POST, path: /search, idempotent: true }
        record_selector: [items]
`;
  return parseDefinition(yaml, 'faulty.yaml');
}
