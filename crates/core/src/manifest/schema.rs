//! The fields the Kubernetes API knows, for the objects podlab reads, as
//! static tables: enough to report unknown fields (with "did you mean" and
//! "belongs one level up/down") and values of the wrong type, the way the API
//! server's strict field validation and JSON decoding do.
//!
//! Field lists follow the v1.35 API types (`k8s.io/api/core/v1/types.go`,
//! `apps/v1`, `batch/v1`). Sub-objects podlab does not model in detail are
//! [`Shape::Any`]: their contents are not checked.

/// What a field's value must look like.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// A mapping with the fields of a schema.
    Object(&'static Schema),
    /// A list of objects of a schema.
    ListOf(&'static Schema),
    /// A string (`cannot unmarshal number into ... of type string` otherwise).
    Str,
    /// An integer.
    Int,
    Bool,
    /// An integer or a string (ports, `maxSurge`).
    IntOrStr,
    /// A resource quantity (number or string).
    Quantity,
    /// `map[string]string` (labels, nodeSelector).
    StrMap,
    /// `map[ResourceName]Quantity` (requests, limits).
    QuantityMap,
    /// A list of strings (`command`, `args`).
    StrList,
    /// A duration of the Scenario (`40s`).
    Duration,
    /// A non-negative decimal number of the Scenario (`rps: 12.5`).
    Number,
    /// Not checked.
    Any,
}

#[derive(Debug)]
pub struct Field {
    pub name: &'static str,
    pub shape: Shape,
}

#[derive(Debug)]
pub struct Schema {
    /// How a person calls this object: `container`, `probe`, `pod spec`.
    pub name: &'static str,
    pub name_zh: &'static str,
    pub fields: &'static [Field],
}

impl Schema {
    pub fn field(&self, name: &str) -> Option<&'static Field> {
        self.fields.iter().find(|field| field.name == name)
    }

    /// The object schemas directly below this one.
    pub fn children(&self) -> impl Iterator<Item = (&'static str, &'static Schema)> + '_ {
        self.fields.iter().filter_map(|field| match field.shape {
            Shape::Object(schema) | Shape::ListOf(schema) => Some((field.name, schema)),
            _ => None,
        })
    }
}

macro_rules! schema {
    ($ident:ident, $name:literal, $zh:literal, [$($field:literal => $shape:expr),* $(,)?]) => {
        pub static $ident: Schema = Schema {
            name: $name,
            name_zh: $zh,
            fields: &[$(Field { name: $field, shape: $shape }),*],
        };
    };
}

use Shape::*;

// ---- metadata ----------------------------------------------------------------

schema!(OBJECT_META, "metadata", "metadata", [
    "name" => Str, "generateName" => Str, "namespace" => Str, "labels" => StrMap,
    "annotations" => StrMap, "uid" => Str, "resourceVersion" => Str, "generation" => Int,
    "creationTimestamp" => Any, "deletionTimestamp" => Any, "deletionGracePeriodSeconds" => Int,
    "ownerReferences" => Any, "finalizers" => StrList, "managedFields" => Any, "selfLink" => Str,
]);

schema!(LABEL_SELECTOR, "label selector", "label selector", [
    "matchLabels" => StrMap, "matchExpressions" => ListOf(&SELECTOR_REQUIREMENT),
]);

schema!(SELECTOR_REQUIREMENT, "selector requirement", "selector requirement", [
    "key" => Str, "operator" => Str, "values" => StrList,
]);

// ---- pod template ------------------------------------------------------------

schema!(POD_TEMPLATE, "pod template", "pod template", [
    "metadata" => Object(&OBJECT_META), "spec" => Object(&POD_SPEC),
]);

schema!(POD_SPEC, "pod spec", "pod spec", [
    "activeDeadlineSeconds" => Int, "affinity" => Object(&AFFINITY),
    "automountServiceAccountToken" => Bool, "containers" => ListOf(&CONTAINER),
    "dnsConfig" => Any, "dnsPolicy" => Str, "enableServiceLinks" => Bool,
    "ephemeralContainers" => Any, "hostAliases" => Any, "hostIPC" => Bool,
    "hostNetwork" => Bool, "hostPID" => Bool, "hostUsers" => Bool, "hostname" => Str,
    "hostnameOverride" => Str, "imagePullSecrets" => Any, "initContainers" => ListOf(&CONTAINER),
    "nodeName" => Str, "nodeSelector" => StrMap, "os" => Any, "overhead" => QuantityMap,
    "preemptionPolicy" => Str, "priority" => Int, "priorityClassName" => Str,
    "readinessGates" => Any, "resourceClaims" => Any, "resources" => Object(&RESOURCES),
    "restartPolicy" => Str, "runtimeClassName" => Str, "schedulerName" => Str,
    "schedulingGates" => Any, "securityContext" => Object(&POD_SECURITY_CONTEXT),
    "serviceAccount" => Str, "serviceAccountName" => Str, "setHostnameAsFQDN" => Bool,
    "shareProcessNamespace" => Bool, "subdomain" => Str, "terminationGracePeriodSeconds" => Int,
    "tolerations" => ListOf(&TOLERATION), "topologySpreadConstraints" => Any,
    "volumes" => ListOf(&VOLUME),
]);

schema!(CONTAINER, "container", "container", [
    "args" => StrList, "command" => StrList, "env" => ListOf(&ENV_VAR),
    "envFrom" => ListOf(&ENV_FROM), "image" => Str, "imagePullPolicy" => Str,
    "lifecycle" => Object(&LIFECYCLE), "livenessProbe" => Object(&PROBE), "name" => Str,
    "ports" => ListOf(&CONTAINER_PORT), "readinessProbe" => Object(&PROBE),
    "resizePolicy" => Any, "resources" => Object(&RESOURCES), "restartPolicy" => Str,
    "restartPolicyRules" => Any, "securityContext" => Object(&SECURITY_CONTEXT),
    "startupProbe" => Object(&PROBE), "stdin" => Bool, "stdinOnce" => Bool,
    "terminationMessagePath" => Str, "terminationMessagePolicy" => Str, "tty" => Bool,
    "volumeDevices" => Any, "volumeMounts" => ListOf(&VOLUME_MOUNT), "workingDir" => Str,
]);

schema!(PROBE, "probe", "探針", [
    "exec" => Object(&EXEC_ACTION), "httpGet" => Object(&HTTP_GET), "tcpSocket" => Object(&TCP_SOCKET),
    "grpc" => Object(&GRPC_ACTION), "initialDelaySeconds" => Int, "timeoutSeconds" => Int,
    "periodSeconds" => Int, "successThreshold" => Int, "failureThreshold" => Int,
    "terminationGracePeriodSeconds" => Int,
]);

schema!(EXEC_ACTION, "exec action", "exec 動作", ["command" => StrList]);

schema!(HTTP_GET, "httpGet action", "httpGet 動作", [
    "path" => Str, "port" => IntOrStr, "host" => Str, "scheme" => Str,
    "httpHeaders" => ListOf(&HTTP_HEADER),
]);

schema!(HTTP_HEADER, "HTTP header", "HTTP header", ["name" => Str, "value" => Str]);

schema!(TCP_SOCKET, "tcpSocket action", "tcpSocket 動作", ["port" => IntOrStr, "host" => Str]);

schema!(GRPC_ACTION, "grpc action", "grpc 動作", ["port" => Int, "service" => Str]);

schema!(SLEEP_ACTION, "sleep action", "sleep 動作", ["seconds" => Int]);

schema!(LIFECYCLE, "lifecycle", "lifecycle", [
    "postStart" => Object(&LIFECYCLE_HANDLER), "preStop" => Object(&LIFECYCLE_HANDLER),
    "stopSignal" => Str,
]);

schema!(LIFECYCLE_HANDLER, "lifecycle handler", "lifecycle handler", [
    "exec" => Object(&EXEC_ACTION), "httpGet" => Object(&HTTP_GET),
    "tcpSocket" => Object(&TCP_SOCKET), "sleep" => Object(&SLEEP_ACTION),
]);

schema!(RESOURCES, "resources", "resources", [
    "limits" => QuantityMap, "requests" => QuantityMap, "claims" => Any,
]);

schema!(CONTAINER_PORT, "container port", "container port", [
    "containerPort" => Int, "hostIP" => Str, "hostPort" => Int, "name" => Str, "protocol" => Str,
]);

schema!(ENV_VAR, "environment variable", "環境變數", [
    "name" => Str, "value" => Str, "valueFrom" => Object(&ENV_VAR_SOURCE),
]);

schema!(ENV_VAR_SOURCE, "valueFrom", "valueFrom", [
    "configMapKeyRef" => Object(&KEY_SELECTOR), "secretKeyRef" => Object(&KEY_SELECTOR),
    "fieldRef" => Any, "resourceFieldRef" => Any, "fileKeyRef" => Any,
]);

schema!(KEY_SELECTOR, "key reference", "key 參照", [
    "name" => Str, "key" => Str, "optional" => Bool,
]);

schema!(ENV_FROM, "envFrom source", "envFrom 來源", [
    "prefix" => Str, "configMapRef" => Object(&NAME_REF), "secretRef" => Object(&NAME_REF),
]);

schema!(NAME_REF, "reference", "參照", ["name" => Str, "optional" => Bool]);

schema!(VOLUME_MOUNT, "volume mount", "volume mount", [
    "name" => Str, "mountPath" => Str, "subPath" => Str, "subPathExpr" => Str,
    "readOnly" => Bool, "recursiveReadOnly" => Str, "mountPropagation" => Str,
]);

schema!(VOLUME, "volume", "volume", [
    "name" => Str, "emptyDir" => Object(&EMPTY_DIR), "configMap" => Any, "secret" => Any,
    "persistentVolumeClaim" => Any, "hostPath" => Any, "projected" => Any, "downwardAPI" => Any,
    "nfs" => Any, "csi" => Any, "ephemeral" => Any, "image" => Any, "awsElasticBlockStore" => Any,
    "azureDisk" => Any, "azureFile" => Any, "cephfs" => Any, "cinder" => Any, "fc" => Any,
    "flexVolume" => Any, "flocker" => Any, "gcePersistentDisk" => Any, "gitRepo" => Any,
    "glusterfs" => Any, "iscsi" => Any, "photonPersistentDisk" => Any, "portworxVolume" => Any,
    "quobyte" => Any, "rbd" => Any, "scaleIO" => Any, "storageos" => Any, "vsphereVolume" => Any,
]);

schema!(EMPTY_DIR, "emptyDir", "emptyDir", ["medium" => Str, "sizeLimit" => Quantity]);

schema!(TOLERATION, "toleration", "toleration", [
    "key" => Str, "operator" => Str, "value" => Str, "effect" => Str, "tolerationSeconds" => Int,
]);

schema!(AFFINITY, "affinity", "affinity", [
    "nodeAffinity" => Object(&NODE_AFFINITY), "podAffinity" => Any, "podAntiAffinity" => Any,
]);

schema!(NODE_AFFINITY, "nodeAffinity", "nodeAffinity", [
    "requiredDuringSchedulingIgnoredDuringExecution" => Object(&NODE_SELECTOR),
    "preferredDuringSchedulingIgnoredDuringExecution" => Any,
]);

schema!(NODE_SELECTOR, "node selector", "節點選擇器", [
    "nodeSelectorTerms" => ListOf(&NODE_SELECTOR_TERM),
]);

schema!(NODE_SELECTOR_TERM, "node selector term", "節點選擇條件", [
    "matchExpressions" => ListOf(&SELECTOR_REQUIREMENT), "matchFields" => ListOf(&SELECTOR_REQUIREMENT),
]);

schema!(SECURITY_CONTEXT, "security context", "security context", [
    "allowPrivilegeEscalation" => Bool, "appArmorProfile" => Any, "capabilities" => Any,
    "privileged" => Bool, "procMount" => Str, "readOnlyRootFilesystem" => Bool,
    "runAsGroup" => Int, "runAsNonRoot" => Bool, "runAsUser" => Int, "seLinuxOptions" => Any,
    "seccompProfile" => Any, "windowsOptions" => Any,
]);

schema!(POD_SECURITY_CONTEXT, "pod security context", "pod security context", [
    "appArmorProfile" => Any, "fsGroup" => Int, "fsGroupChangePolicy" => Str, "runAsGroup" => Int,
    "runAsNonRoot" => Bool, "runAsUser" => Int, "seLinuxChangePolicy" => Str,
    "seLinuxOptions" => Any, "seccompProfile" => Any, "supplementalGroups" => Any,
    "supplementalGroupsPolicy" => Str, "sysctls" => Any, "windowsOptions" => Any,
]);

// ---- workloads ---------------------------------------------------------------

schema!(DEPLOYMENT_SPEC, "Deployment spec", "Deployment spec", [
    "replicas" => Int, "selector" => Object(&LABEL_SELECTOR), "template" => Object(&POD_TEMPLATE),
    "strategy" => Object(&DEPLOYMENT_STRATEGY), "minReadySeconds" => Int, "revisionHistoryLimit" => Int, "paused" => Bool,
    "progressDeadlineSeconds" => Int,
]);

schema!(DEPLOYMENT_STRATEGY, "Deployment strategy", "Deployment strategy", [
    "type" => Str, "rollingUpdate" => Object(&ROLLING_UPDATE_DEPLOYMENT),
]);

schema!(ROLLING_UPDATE_DEPLOYMENT, "rolling update", "rolling update", [
    "maxSurge" => IntOrStr, "maxUnavailable" => IntOrStr,
]);

schema!(REPLICA_SET_SPEC, "ReplicaSet spec", "ReplicaSet spec", [
    "replicas" => Int, "selector" => Object(&LABEL_SELECTOR), "template" => Object(&POD_TEMPLATE),
    "minReadySeconds" => Int,
]);

schema!(STATEFUL_SET_SPEC, "StatefulSet spec", "StatefulSet spec", [
    "replicas" => Int, "selector" => Object(&LABEL_SELECTOR), "template" => Object(&POD_TEMPLATE),
    "serviceName" => Str, "volumeClaimTemplates" => Any, "podManagementPolicy" => Str,
    "updateStrategy" => Any, "revisionHistoryLimit" => Int, "minReadySeconds" => Int,
    "persistentVolumeClaimRetentionPolicy" => Any, "ordinals" => Any,
]);

schema!(DAEMON_SET_SPEC, "DaemonSet spec", "DaemonSet spec", [
    "selector" => Object(&LABEL_SELECTOR), "template" => Object(&POD_TEMPLATE),
    "updateStrategy" => Any, "minReadySeconds" => Int, "revisionHistoryLimit" => Int,
]);

schema!(JOB_SPEC, "Job spec", "Job spec", [
    "parallelism" => Int, "completions" => Int, "activeDeadlineSeconds" => Int,
    "podFailurePolicy" => Any, "successPolicy" => Any, "backoffLimit" => Int,
    "backoffLimitPerIndex" => Int, "maxFailedIndexes" => Int, "selector" => Object(&LABEL_SELECTOR),
    "manualSelector" => Bool, "template" => Object(&POD_TEMPLATE), "ttlSecondsAfterFinished" => Int,
    "completionMode" => Str, "suspend" => Bool, "podReplacementPolicy" => Str, "managedBy" => Str,
]);

schema!(JOB_TEMPLATE, "job template", "job template", [
    "metadata" => Object(&OBJECT_META), "spec" => Object(&JOB_SPEC),
]);

schema!(CRON_JOB_SPEC, "CronJob spec", "CronJob spec", [
    "schedule" => Str, "timeZone" => Str, "startingDeadlineSeconds" => Int,
    "concurrencyPolicy" => Str, "suspend" => Bool, "jobTemplate" => Object(&JOB_TEMPLATE),
    "successfulJobsHistoryLimit" => Int, "failedJobsHistoryLimit" => Int,
]);

schema!(SERVICE_SPEC, "Service spec", "Service spec", [
    "selector" => StrMap, "ports" => ListOf(&SERVICE_PORT), "type" => Str, "clusterIP" => Str,
    "clusterIPs" => StrList, "externalIPs" => StrList, "externalName" => Str,
    "externalTrafficPolicy" => Str, "internalTrafficPolicy" => Str, "sessionAffinity" => Str,
    "sessionAffinityConfig" => Any, "loadBalancerIP" => Str, "loadBalancerClass" => Str,
    "loadBalancerSourceRanges" => StrList, "publishNotReadyAddresses" => Bool,
    "ipFamilies" => StrList, "ipFamilyPolicy" => Str, "healthCheckNodePort" => Int,
    "allocateLoadBalancerNodePorts" => Bool, "trafficDistribution" => Str,
]);

schema!(SERVICE_PORT, "Service port", "Service port", [
    "name" => Str, "protocol" => Str, "port" => Int, "targetPort" => IntOrStr,
    "nodePort" => Int, "appProtocol" => Str,
]);

// ---- HorizontalPodAutoscaler (autoscaling/v2) ---------------------------------

schema!(HPA_SPEC, "HorizontalPodAutoscaler spec", "HorizontalPodAutoscaler spec", [
    "scaleTargetRef" => Object(&HPA_TARGET_REF), "minReplicas" => Int, "maxReplicas" => Int,
    "metrics" => ListOf(&HPA_METRIC), "behavior" => Object(&HPA_BEHAVIOR),
]);

schema!(HPA_TARGET_REF, "scaleTargetRef", "scaleTargetRef", [
    "apiVersion" => Str, "kind" => Str, "name" => Str,
]);

schema!(HPA_METRIC, "HPA metric", "HPA 指標", [
    "type" => Str, "resource" => Object(&HPA_RESOURCE_METRIC),
    "containerResource" => Object(&HPA_CONTAINER_RESOURCE_METRIC),
    "pods" => Object(&HPA_PODS_METRIC), "object" => Any, "external" => Any,
]);

schema!(HPA_RESOURCE_METRIC, "resource metric", "resource 指標", [
    "name" => Str, "target" => Object(&HPA_METRIC_TARGET),
]);

schema!(HPA_CONTAINER_RESOURCE_METRIC, "containerResource metric", "containerResource 指標", [
    "name" => Str, "container" => Str, "target" => Object(&HPA_METRIC_TARGET),
]);

schema!(HPA_PODS_METRIC, "pods metric", "pods 指標", [
    "metric" => Object(&HPA_METRIC_IDENTIFIER), "target" => Object(&HPA_METRIC_TARGET),
]);

schema!(HPA_METRIC_IDENTIFIER, "metric identifier", "指標識別", ["name" => Str, "selector" => Any]);

schema!(HPA_METRIC_TARGET, "metric target", "指標目標", [
    "type" => Str, "averageUtilization" => Int, "averageValue" => Quantity, "value" => Quantity,
]);

schema!(HPA_BEHAVIOR, "HPA behavior", "HPA behavior", [
    "scaleUp" => Object(&HPA_SCALING_RULES), "scaleDown" => Object(&HPA_SCALING_RULES),
]);

schema!(HPA_SCALING_RULES, "scaling rules", "擴縮規則", [
    "stabilizationWindowSeconds" => Int, "selectPolicy" => Str,
    "policies" => ListOf(&HPA_SCALING_POLICY), "tolerance" => Quantity,
]);

schema!(HPA_SCALING_POLICY, "scaling policy", "擴縮政策", [
    "type" => Str, "value" => Int, "periodSeconds" => Int,
]);

// ---- KEDA ScaledObject (keda.sh/v1alpha1, v2.18.3 `scaledobject_types.go`) ---

schema!(SCALED_OBJECT_SPEC, "ScaledObject spec", "ScaledObject spec", [
    "scaleTargetRef" => Object(&SCALED_OBJECT_TARGET_REF), "pollingInterval" => Int,
    "cooldownPeriod" => Int, "initialCooldownPeriod" => Int, "idleReplicaCount" => Int,
    "minReplicaCount" => Int, "maxReplicaCount" => Int,
    "advanced" => Object(&SCALED_OBJECT_ADVANCED), "triggers" => ListOf(&SCALED_OBJECT_TRIGGER),
    "fallback" => Any,
]);

schema!(SCALED_OBJECT_TARGET_REF, "scaleTargetRef", "scaleTargetRef", [
    "apiVersion" => Str, "kind" => Str, "name" => Str, "envSourceContainerName" => Str,
]);

schema!(SCALED_OBJECT_ADVANCED, "ScaledObject advanced", "ScaledObject advanced", [
    "horizontalPodAutoscalerConfig" => Object(&SCALED_OBJECT_HPA_CONFIG),
    "restoreToOriginalReplicaCount" => Bool, "scalingModifiers" => Any,
]);

schema!(SCALED_OBJECT_HPA_CONFIG, "horizontalPodAutoscalerConfig", "horizontalPodAutoscalerConfig", [
    "name" => Str, "behavior" => Object(&HPA_BEHAVIOR),
]);

// `metadata` is KEDA's `map[string]string`: `threshold: 5` unquoted is refused.
schema!(SCALED_OBJECT_TRIGGER, "ScaledObject trigger", "ScaledObject 觸發器", [
    "type" => Str, "name" => Str, "metadata" => StrMap, "authenticationRef" => Any,
    "metricType" => Str, "useCachedMetrics" => Bool,
]);

/// Top-level fields of any object; `spec` is checked with the kind's own schema.
pub const TOP_LEVEL_FIELDS: &[&str] = &["apiVersion", "kind", "metadata", "spec", "status"];

// ---- Scenario (podlab.dev/v1alpha1) -------------------------------------------

schema!(SCENARIO_SPEC, "Scenario spec", "Scenario spec", [
    "duration" => Duration, "seed" => Int, "workload" => ListOf(&SCENARIO_WORKLOAD),
    "cluster" => Object(&SCENARIO_CLUSTER), "traffic" => Object(&SCENARIO_TRAFFIC),
    "actions" => ListOf(&SCENARIO_ACTION), "rollout" => ListOf(&SCENARIO_ROLLOUT),
]);

schema!(SCENARIO_ROLLOUT, "Scenario rollout", "Scenario rollout", [
    "at" => Duration, "workload" => Str, "image" => Str,
]);

schema!(SCENARIO_ACTION, "Scenario action", "Scenario 動作", [
    "at" => Duration, "scale" => Object(&SCENARIO_SCALE), "delete" => Object(&SCENARIO_DELETE),
    "cordon" => Object(&SCENARIO_NODE_ACTION), "uncordon" => Object(&SCENARIO_NODE_ACTION),
    "drain" => Object(&SCENARIO_NODE_ACTION), "restart" => Object(&SCENARIO_RESTART),
    "patch" => Object(&SCENARIO_PATCH), "undo" => Object(&SCENARIO_UNDO),
    "label" => Object(&SCENARIO_LABEL), "annotate" => Object(&SCENARIO_ANNOTATE),
]);

// A `null` value removes the key (kubectl's merge patch).
schema!(SCENARIO_LABEL, "label action", "label 動作", [
    "pod" => Str, "node" => Str, "deployment" => Str, "labels" => StrMap,
]);

schema!(SCENARIO_ANNOTATE, "annotate action", "annotate 動作", [
    "pod" => Str, "node" => Str, "deployment" => Str, "annotations" => StrMap,
]);

schema!(SCENARIO_UNDO, "undo action", "undo 動作", ["deployment" => Str, "toRevision" => Int]);

// The body is checked as the Deployment's own `metadata` and `spec`.
schema!(SCENARIO_PATCH, "patch action", "patch 動作", [
    "deployment" => Str, "type" => Str, "metadata" => Object(&OBJECT_META),
    "spec" => Object(&DEPLOYMENT_SPEC),
]);

schema!(SCENARIO_RESTART, "restart action", "restart 動作", ["deployment" => Str]);

schema!(SCENARIO_DELETE, "delete action", "delete 動作", [
    "pod" => Str, "gracePeriodSeconds" => Int, "force" => Bool,
]);

schema!(SCENARIO_NODE_ACTION, "node action", "節點動作", ["node" => Str]);

schema!(SCENARIO_SCALE, "scale action", "scale 動作", ["name" => Str, "replicas" => Int]);

schema!(SCENARIO_TRAFFIC, "Scenario traffic", "Scenario traffic", [
    "service" => Str, "rate" => ListOf(&SCENARIO_RATE), "arrivals" => Str, "timeout" => Duration,
    "propagation" => Duration, "target" => Duration,
    "interceptor" => Object(&SCENARIO_INTERCEPTOR),
]);

schema!(SCENARIO_INTERCEPTOR, "traffic interceptor", "traffic interceptor", [
    "conditionWait" => Duration, "responseHeader" => Duration,
]);

schema!(SCENARIO_RATE, "traffic rate step", "流量速率階段", [
    "at" => Duration, "rps" => Number, "ramp" => Bool,
]);

schema!(SCENARIO_SERVE, "Scenario serve", "Scenario serve", [
    "concurrency" => Int, "latency" => Duration, "distribution" => Str,
    "batching" => Object(&SCENARIO_BATCHING), "queueLimit" => Int,
]);

schema!(SCENARIO_BATCHING, "Scenario batching", "Scenario batching", [
    "maxBatch" => Int, "maxWait" => Duration, "perItem" => Duration,
]);

schema!(SCENARIO_WORKLOAD, "Scenario workload", "Scenario workload", [
    "container" => Str, "startup" => Duration, "listenPort" => Int, "healthPath" => Str,
    "healthLatency" => Duration, "memory" => Object(&SCENARIO_MEMORY), "workers" => Int,
    "gpuMemory" => Quantity, "exit" => Object(&SCENARIO_EXIT), "runFor" => Duration,
    "imagePull" => Duration, "shutdown" => Duration, "shm" => Quantity,
    "serve" => Object(&SCENARIO_SERVE), "cpu" => Object(&SCENARIO_CPU),
]);

schema!(SCENARIO_CPU, "Scenario cpu", "Scenario cpu", [
    "idle" => Quantity, "perRequest" => Duration, "loading" => Quantity,
]);

schema!(SCENARIO_MEMORY, "Scenario memory", "Scenario memory", [
    "steady" => Quantity, "peak" => Quantity,
]);

schema!(SCENARIO_EXIT, "Scenario exit", "Scenario exit", [
    "after" => Duration, "code" => Int, "log" => Str,
]);

schema!(SCENARIO_CLUSTER, "Scenario cluster", "Scenario cluster", [
    "nodePools" => ListOf(&SCENARIO_NODE_POOL), "missing" => StrList,
    "admissionPlugins" => StrList,
]);

schema!(SCENARIO_NODE_POOL, "node pool", "節點池", [
    "name" => Str, "count" => Int, "cpu" => Quantity, "memory" => Quantity,
    "gpu" => Object(&SCENARIO_GPU), "devicePlugin" => Bool, "sharing" => Object(&SCENARIO_SHARING),
    "labels" => StrMap, "taints" => ListOf(&SCENARIO_TAINT),
]);

schema!(SCENARIO_GPU, "node pool GPU", "節點池 GPU", ["model" => Str, "count" => Int]);

schema!(SCENARIO_SHARING, "GPU sharing", "GPU 共享", [
    "mode" => Str, "replicas" => Int, "renameByDefault" => Bool, "strategy" => Str,
    "layout" => StrList,
]);

schema!(SCENARIO_TAINT, "taint", "taint", ["key" => Str, "value" => Str, "effect" => Str]);

// ---- Exercise (podlab.dev/v1alpha1) -------------------------------------------

schema!(LOCALIZED, "text in both languages", "雙語文字", ["en" => Str, "zh-TW" => Str]);

schema!(EXERCISE_SPEC, "Exercise spec", "Exercise spec", [
    "title" => Object(&LOCALIZED), "story" => Object(&LOCALIZED), "goal" => Object(&LOCALIZED),
    "hints" => ListOf(&LOCALIZED), "explanation" => Object(&LOCALIZED), "tags" => StrList,
    "goals" => ListOf(&EXERCISE_GOAL), "interview" => Object(&EXERCISE_INTERVIEW),
]);

schema!(EXERCISE_GOAL, "goal", "目標", [
    "allReady" => Object(&GOAL_WITHIN), "maxRestarts" => Int, "jobSucceeded" => Object(&GOAL_JOB),
    "noPending" => Any, "forbid" => Object(&GOAL_FORBID), "maxMemoryLimit" => Quantity,
    "exec" => Object(&GOAL_EXEC), "seesGpu" => Object(&GOAL_CONTAINER),
    "readyOnlyWhenLoaded" => Any, "keepActions" => Any, "maxP99" => Duration, "maxFailedRequests" => Any,
    "rolloutComplete" => Str, "edge" => Object(&GOAL_EDGE),
]);

schema!(GOAL_EDGE, "edge goal", "edge 目標", ["number" => Str, "step" => Any]);

schema!(GOAL_WITHIN, "allReady goal", "allReady 目標", ["within" => Duration]);

schema!(GOAL_JOB, "jobSucceeded goal", "jobSucceeded 目標", ["within" => Duration, "name" => Str]);

schema!(GOAL_FORBID, "forbid goal", "forbid 目標", [
    "moreGpus" => Bool, "programChanges" => Bool, "removeTaints" => Bool,
]);

schema!(GOAL_EXEC, "exec goal", "exec 目標", [
    "container" => Str, "command" => Str, "equals" => Str,
]);

schema!(GOAL_CONTAINER, "seesGpu goal", "seesGpu 目標", ["container" => Str]);

schema!(EXERCISE_INTERVIEW, "interview", "面試模式", [
    "title" => Object(&LOCALIZED), "story" => Object(&LOCALIZED), "at" => Duration, "commands" => StrList, "recommended" => StrList,
    "causes" => ListOf(&INTERVIEW_CAUSE),
]);

schema!(INTERVIEW_CAUSE, "root-cause option", "根因選項", [
    "text" => Object(&LOCALIZED), "correct" => Bool, "why" => Object(&LOCALIZED),
]);

/// The schema of a known kind's `spec`.
pub fn spec_schema(kind: &str) -> Option<&'static Schema> {
    Some(match kind {
        "Pod" => &POD_SPEC,
        "Deployment" => &DEPLOYMENT_SPEC,
        "ReplicaSet" => &REPLICA_SET_SPEC,
        "StatefulSet" => &STATEFUL_SET_SPEC,
        "DaemonSet" => &DAEMON_SET_SPEC,
        "Job" => &JOB_SPEC,
        "CronJob" => &CRON_JOB_SPEC,
        "Service" => &SERVICE_SPEC,
        "HorizontalPodAutoscaler" => &HPA_SPEC,
        "ScaledObject" => &SCALED_OBJECT_SPEC,
        "Scenario" => &SCENARIO_SPEC,
        "Exercise" => &EXERCISE_SPEC,
        _ => return None,
    })
}

/// Levenshtein distance on ASCII-lowercased names; small and dependency-free.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The known name closest to `written`, if it is close enough to be a typo.
pub fn closest<'a>(written: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (written.chars().count() / 3).clamp(1, 4);
    candidates
        .map(|candidate| (edit_distance(written, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typos_find_the_field_meant() {
        let names = || CONTAINER.fields.iter().map(|field| field.name);
        assert_eq!(closest("livenesProbe", names()), Some("livenessProbe"));
        assert_eq!(closest("LivenessProbe", names()), Some("livenessProbe"));
        assert_eq!(
            closest("limit", RESOURCES.fields.iter().map(|f| f.name)),
            Some("limits")
        );
        assert_eq!(
            closest("initialDelaySecond", PROBE.fields.iter().map(|f| f.name)),
            Some("initialDelaySeconds")
        );
        assert_eq!(closest("zzzzzz", names()), None);
    }
}
