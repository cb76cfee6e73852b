/** Where the service's own links point: the public pages and resources it hands out. */
export interface Links {
  /** Base address of the service, without a trailing slash. */
  publicBaseUrl: string;
}
