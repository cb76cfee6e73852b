// Where the administration pages and their scripts live.

export const ADMIN_PATH = '/admin';
export const orgPath = (orgId: string, rest = '') => `${ADMIN_PATH}/orgs/${encodeURIComponent(orgId)}${rest}`;
export const COPY_SCRIPT_PATH = `${ADMIN_PATH}/assets/copy.js`;
export const REFRESH_SCRIPT_PATH = `${ADMIN_PATH}/assets/refresh.js`;
