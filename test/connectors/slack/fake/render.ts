// Records of dataset.ts as Slack's wire objects: objs_user (users.list/info), objs_conversation
// (conversations.*), objs_message (history/replies/chat.*), objs_file (files.*) and the bookmark object of
// bookmarks.add, with the field names and value shapes of the reference's schemas and examples.
import {
  APP_ID,
  BOT_ID,
  type BookmarkRecord,
  type ChannelRecord,
  type Dataset,
  type FileRecord,
  type MessageRecord,
  TEAM,
  type UserRecord,
} from './dataset.ts';

const AVATAR = 'https://avatars.slack-edge.com/ces-fake';

export function renderUser(u: UserRecord, opts: { locale?: boolean; email?: boolean } = {}) {
  const hash = u.id.toLowerCase().slice(-12).padStart(12, 'g');
  const images = Object.fromEntries(
    [24, 32, 48, 72, 192, 512].map((size) => [`image_${size}`, `${AVATAR}/${hash}_${size}.png`]),
  );
  const profile: Record<string, unknown> = {
    title: u.title,
    phone: '',
    skype: '',
    real_name: u.real_name,
    real_name_normalized: u.real_name,
    display_name: u.is_bot ? '' : u.name,
    display_name_normalized: u.is_bot ? '' : u.name,
    fields: null,
    status_text: u.status_text,
    status_emoji: u.status_emoji,
    status_expiration: 0,
    avatar_hash: hash,
    first_name: u.first,
    last_name: u.last,
    ...images,
    team: TEAM.id,
  };
  if (u.is_bot) {
    profile.bot_id = BOT_ID;
    profile.api_app_id = APP_ID;
    profile.always_active = false;
  } else if (opts.email === true && u.id !== 'USLACKBOT') {
    profile.email = `${u.name}@${TEAM.email_domain}`;
  }
  return {
    id: u.id,
    team_id: TEAM.id,
    name: u.name,
    deleted: u.deleted,
    color: u.color,
    real_name: u.real_name,
    tz: u.tz,
    tz_label: u.tz_label,
    tz_offset: u.tz_offset,
    profile,
    is_admin: u.is_admin,
    is_owner: u.is_owner,
    is_primary_owner: u.is_primary_owner,
    is_restricted: false,
    is_ultra_restricted: false,
    is_bot: u.is_bot,
    is_app_user: false,
    updated: u.updated,
    has_2fa: false,
    ...(opts.locale === true ? { locale: 'en-US' } : {}),
  };
}

export function renderChannel(
  ch: ChannelRecord,
  viewer: string,
  opts: { numMembers?: boolean; locale?: boolean } = {},
) {
  return {
    id: ch.id,
    name: ch.name,
    is_channel: !ch.is_private,
    is_group: ch.is_private,
    is_im: false,
    is_mpim: false,
    is_private: ch.is_private,
    created: ch.created,
    is_archived: ch.is_archived,
    is_general: ch.is_general,
    unlinked: 0,
    name_normalized: ch.name,
    is_shared: false,
    is_org_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    context_team_id: TEAM.id,
    updated: ch.created * 1000,
    parent_conversation: null,
    creator: ch.creator,
    is_ext_shared: false,
    shared_team_ids: [TEAM.id],
    pending_connected_team_ids: [],
    is_member: ch.members.includes(viewer),
    topic: { ...ch.topic },
    purpose: { ...ch.purpose },
    previous_names: [...ch.previous_names],
    ...(opts.numMembers === true ? { num_members: ch.members.length } : {}),
    ...(opts.locale === true ? { locale: 'en-US' } : {}),
  };
}

function botProfile() {
  return {
    id: BOT_ID,
    deleted: false,
    name: 'CES Bot',
    updated: 1_690_100_000,
    app_id: APP_ID,
    icons: {
      image_36: `${AVATAR}/bot_36.png`,
      image_48: `${AVATAR}/bot_48.png`,
      image_72: `${AVATAR}/bot_72.png`,
    },
    team_id: TEAM.id,
  };
}

/** A message as history/replies/chat.* answer it; thread parents carry their thread's summary. */
export function renderMessage(data: Dataset, m: MessageRecord, viewer?: string) {
  const out: Record<string, unknown> = { type: 'message' };
  if (m.subtype !== undefined) out.subtype = m.subtype;
  out.ts = m.ts;
  out.user = m.user;
  if (m.bot === true) {
    out.bot_id = BOT_ID;
    out.app_id = APP_ID;
  }
  out.text = m.text;
  out.team = TEAM.id;
  if (m.bot === true) out.bot_profile = botProfile();
  if (m.blocks !== undefined) out.blocks = m.blocks;
  if (m.attachments !== undefined) out.attachments = m.attachments;
  if (m.edited !== undefined) out.edited = { ...m.edited };
  if (m.thread_ts !== undefined && m.thread_ts !== m.ts) {
    out.thread_ts = m.thread_ts;
    if (m.parent_user_id !== undefined) out.parent_user_id = m.parent_user_id;
  } else {
    const replies = data.repliesOf(m.channel, m.ts);
    if (replies.length > 0) {
      const users = [...new Set(replies.map((r) => r.user))];
      out.thread_ts = m.ts;
      out.reply_count = replies.length;
      out.reply_users_count = users.length;
      out.latest_reply = (replies[replies.length - 1] as MessageRecord).ts;
      out.reply_users = users.slice(0, 5);
      out.is_locked = false;
      out.subscribed = viewer !== undefined && (m.user === viewer || users.includes(viewer));
    }
  }
  if (m.reactions.length > 0) out.reactions = m.reactions.map((r) => ({ ...r, users: [...r.users] }));
  if (m.pinned_to.length > 0) out.pinned_to = [...m.pinned_to];
  return out;
}

/** The message object chat.postMessage / chat.update answer with (no thread summary). */
export function renderPosted(m: MessageRecord) {
  const out: Record<string, unknown> = {
    user: m.user,
    type: 'message',
    ts: m.ts,
  };
  if (m.bot === true) {
    out.bot_id = BOT_ID;
    out.app_id = APP_ID;
  }
  out.text = m.text;
  out.team = TEAM.id;
  if (m.bot === true) out.bot_profile = botProfile();
  if (m.thread_ts !== undefined) {
    out.thread_ts = m.thread_ts;
    if (m.parent_user_id !== undefined) out.parent_user_id = m.parent_user_id;
  }
  if (m.blocks !== undefined) out.blocks = m.blocks;
  if (m.attachments !== undefined) out.attachments = m.attachments;
  if (m.edited !== undefined) out.edited = { ...m.edited };
  return out;
}

/** The private download path of a file, served by files.ts on the fake's origin. */
export function filePath(f: FileRecord, download = false): string {
  return `/files-pri/${TEAM.id}-${f.id}/${download ? 'download/' : ''}${encodeURIComponent(f.name)}`;
}

export function renderFile(f: FileRecord, origin: string, channelNames: (id: string) => string) {
  const permalink = `https://${TEAM.domain}.slack.com/files/${f.user}/${f.id}/${encodeURIComponent(f.name)}`;
  const out: Record<string, unknown> = {
    id: f.id,
    created: f.created,
    timestamp: f.created,
    name: f.name,
    title: f.title,
    mimetype: f.mimetype,
    filetype: f.filetype,
    pretty_type: f.pretty_type,
    user: f.user,
    user_team: TEAM.id,
    editable: f.filetype === 'text',
    size: f.bytes.length,
    mode: 'hosted',
    is_external: false,
    external_type: '',
    is_public: true,
    public_url_shared: false,
    display_as_bot: false,
    username: '',
    url_private: `${origin}${filePath(f)}`,
    url_private_download: `${origin}${filePath(f, true)}`,
    permalink,
    permalink_public: `https://slack-files.com/${TEAM.id}-${f.id}-${f.id.toLowerCase().slice(-6)}`,
    channels: [...f.channels],
    groups: [],
    ims: [],
    comments_count: 0,
    has_rich_preview: false,
    file_access: 'visible',
    shares: {
      public: Object.fromEntries(
        f.channels.map((c) => [
          c,
          [
            {
              reply_users: [],
              reply_users_count: 0,
              reply_count: 0,
              ts: `${f.created}.000200`,
              channel_name: channelNames(c),
              team_id: TEAM.id,
            },
          ],
        ]),
      ),
    },
  };
  if (f.filetype === 'png') {
    Object.assign(out, {
      original_w: 1,
      original_h: 1,
      thumb_64: `${origin}${filePath(f)}?thumb=64`,
      thumb_80: `${origin}${filePath(f)}?thumb=80`,
      thumb_360: `${origin}${filePath(f)}?thumb=360`,
      thumb_360_w: 1,
      thumb_360_h: 1,
      image_exif_rotation: 1,
    });
  }
  return out;
}

export function renderBookmark(b: BookmarkRecord) {
  return {
    id: b.id,
    channel_id: b.channel_id,
    title: b.title,
    link: b.link,
    emoji: b.emoji,
    icon_url: null,
    type: b.type,
    entity_id: b.entity_id,
    date_created: b.date_created,
    date_updated: 0,
    rank: b.rank,
    last_updated_by_user_id: b.last_updated_by_user_id,
    last_updated_by_team_id: TEAM.id,
    shortcut_id: null,
    app_id: null,
    parent_id: b.parent_id,
  };
}
