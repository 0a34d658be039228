/** What every integrations tab is given (Integrations.tsx builds it from the session). */
export interface IntegrationProps {
  isCompany: boolean;
  canManage: boolean;
  companyId: number | null;
}
