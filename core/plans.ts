import type { Plan } from './entities/index.ts';

export interface PlanAllowances {
  activeKeys: number;
  monthlyQuota: number;
  destinations: number;
  retainedDeliveries: number;
  manualRetry: boolean;
}

/** What each plan allows (docs/service-contract.md#limits, docs/service-contract.md#plan-allowances). */
export const PLAN_ALLOWANCES: Readonly<Record<Plan, PlanAllowances>> = {
  base: { activeKeys: 1, monthlyQuota: 1_000, destinations: 1, retainedDeliveries: 12, manualRetry: false },
  alpha: { activeKeys: 1, monthlyQuota: 10_000, destinations: 2, retainedDeliveries: 25, manualRetry: false },
  clan: { activeKeys: 5, monthlyQuota: 100_000, destinations: 10, retainedDeliveries: 100, manualRetry: true },
};
