// Lifetimes of the member connector's secrets and sessions (docs/design.md#member-connector-and-oauth), set from configuration.

export interface MemberAccessPolicy {
  /** Access tokens. @default 600 (ten minutes, the most allowed) */
  accessTokenTtlSeconds: number;
  /** Refresh tokens; each is replaced at use. @default 2592000 (30 days) */
  refreshTokenTtlSeconds: number;
  /** Authorization codes. @default 60 (the most allowed) */
  authorizationCodeTtlSeconds: number;
  /** Member browser sessions. @default 43200 (12 hours) */
  sessionTtlSeconds: number;
}

export const DEFAULT_MEMBER_ACCESS_POLICY: MemberAccessPolicy = {
  accessTokenTtlSeconds: 600,
  refreshTokenTtlSeconds: 30 * 24 * 3600,
  authorizationCodeTtlSeconds: 60,
  sessionTtlSeconds: 12 * 3600,
};

/** Path of the member connector below the public base URL; its canonical address is the token audience. */
export const MEMBER_CONNECTOR_PATH = '/mcp/member';

export const memberConnectorUrl = (publicBaseUrl: string) => `${publicBaseUrl}${MEMBER_CONNECTOR_PATH}`;

/**
 * A member's own account page, below the public base URL: the profile address the member connector
 * gives. It asks the member to sign in; there is no public page of a member.
 */
export const MEMBER_ACCOUNT_PATH = '/account/settings';

/** Where a member reviews a draft need and publishes it, below the public base URL. */
export const DRAFT_REVIEW_PATH = '/account/drafts/';

export const draftReviewUrl = (publicBaseUrl: string, needId: string) =>
  `${publicBaseUrl}${DRAFT_REVIEW_PATH}${encodeURIComponent(needId)}`;

/** Where a member reads a team invitation and accepts or refuses it, below the public base URL. */
export const TEAM_INVITATION_PATH = '/account/team-invitations/';

export const teamInvitationUrl = (publicBaseUrl: string, invitationId: string) =>
  `${publicBaseUrl}${TEAM_INVITATION_PATH}${encodeURIComponent(invitationId)}`;
