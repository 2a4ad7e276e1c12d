/**
 * The YAML of a fictional connector type for tests that care only about its entities: `slug` (name and hosts
 * derived from it), one bearer-key credential option, a `GET /me` check, no settings; `entities` is the YAML
 * of its `entities:` list, as it would stand under that key.
 */
export function testDefinitionYaml(id: string, slug: string, entities: string): string {
  const name = slug[0]?.toUpperCase() + slug.slice(1);
  return `
id: ${id}
slug: ${slug}
name: ${name}
icon_url: https://${slug}.example/icon.svg
support_level: community
documentation_url: https://${slug}.example/docs
base_url: https://api.${slug}.example
credential_options:
  - title: Key
    description: A key.
    fields:
      key: { type: string, title: Key, description: The key., secret: true }
    required: [key]
    auth: { type: bearer, token: "{key}" }
check: { method: GET, path: /me }
replication_config: { type: object, properties: {} }
entities:
${entities}`;
}

/**
 * The YAML of one entity as it stands in `entities:`: `name`, primary key `id`, listed by `GET /<name>`, and the
 * Context Store indexing `fields` (each `[name, type]`).
 */
export function indexedEntityYaml(name: string, fields: Array<[string, string]>): string {
  const title = name[0]?.toUpperCase() + name.slice(1);
  return `  - name: ${name}
    description: ${title}.
    primary_key: [id]
    actions:
      list:
        description: List ${name}.
        request: { method: GET, path: /${name} }
    context_store:
      fields:
${fields.map(([field, type]) => `        - { name: ${field}, type: ${type} }\n`).join('')}`;
}
