import { defineEntity, type InferEntity } from '@mikro-orm/core';

/** Service-wide values shared by every instance, such as the cursor signing key. */
export const SettingEntity = defineEntity({
  name: 'Setting',
  tableName: 'settings',
  properties: (p) => ({
    key: p.string().length(100).primary(),
    value: p.text(),
  }),
});

export type Setting = InferEntity<typeof SettingEntity>;
