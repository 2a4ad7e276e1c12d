/**
 * Table shapes as Kysely sees them. Portable between SQLite and PostgreSQL: timestamps are ISO-8601 text,
 * booleans are 0/1 integers, JSON is text (jsonb on PostgreSQL behind the same string interface).
 */
export interface Database {
  organizations: { id: string; name: string; created_at: string };
  accounts: { id: string; name: string; created_at: string };
  account_organizations: { account_id: string; organization_id: string; created_at: string };
  applications: {
    id: string;
    account_id: string;
    name: string;
    client_id: string;
    secret_hash: string;
    created_at: string;
    revoked_at: string | null;
  };
  workspaces: {
    id: string;
    organization_id: string;
    name: string;
    status: string;
    cache_enabled: number | null;
    created_at: string;
    updated_at: string;
  };
  connectors: {
    id: string;
    organization_id: string;
    workspace_id: string;
    definition_id: string;
    connector_type: string;
    name: string;
    replication_config: string;
    credential_option: string;
    credentials_ciphertext: string;
    credentials_key_id: string;
    /** 'valid' | 'needs_reauth' */
    credentials_status: string;
    credentials_error: string | null;
    /** the template it was created from; null: the connector type's implicit default */
    source_template_id: string | null;
    /** JSON: the entities its creator asked for ([{entity, modes}]); null: all */
    entities: string | null;
    created_at: string;
    updated_at: string;
  };
  source_templates: {
    id: string;
    organization_id: string;
    definition_id: string;
    name: string;
    /** JSON object: replication_config values the template fixes */
    partial_default_config: string;
    /** JSON object or null */
    customization: string | null;
    /** JSON array of strings */
    tags: string;
    mode: string;
    created_at: string;
    updated_at: string;
  };
  oauth_apps: {
    id: string;
    organization_id: string;
    definition_id: string;
    client_id: string;
    secret_ciphertext: string;
    secret_key_id: string;
    created_at: string;
    updated_at: string;
  };
  oauth_states: {
    id: string;
    organization_id: string;
    application_id: string;
    workspace_id: string;
    widget_token_id: string | null;
    definition_id: string;
    option_title: string;
    redirect_url: string;
    request: string;
    verifier_ciphertext: string | null;
    verifier_key_id: string | null;
    created_at: string;
    expires_at: string;
    used_at: string | null;
  };
  application_redirect_urls: { application_id: string; url: string; created_at: string };
  server_secrets: { name: string; ciphertext: string; key_id: string; created_at: string };
}
