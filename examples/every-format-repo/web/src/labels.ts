import { featureFlag } from "./flags-runtime";

export const showNewLabels = featureFlag("newLabels");
