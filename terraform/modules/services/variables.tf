variable "name" {
  description = "Region name (sydney, nvirginia, ...): the broker's GEOBROKER_REGION and part of resource names."
  type        = string
}

variable "vpc_id" {
  description = "The region's VPC."
  type        = string
}

variable "vpc_cidr" {
  description = "The region's VPC CIDR (where its Cassandra and Kafka nodes are)."
  type        = string
}

variable "subnet_ids" {
  description = "The app subnets, one per zone, in zone order."
  type        = list(string)
}

variable "broker" {
  description = "Zone index and fixed private address of the region's broker-service (one per region: it is the single writer of the region's data)."
  type = object({
    az = number
    ip = string
  })
}

variable "tickers" {
  description = "Zone index and fixed private address of each ticker-service instance."
  type = list(object({
    az = number
    ip = string
  }))
  default = []
}

variable "topology_properties" {
  description = "The deployment's topology file (from the topology module), installed as /etc/geobroker/topology.properties."
  type        = string
  validation {
    condition     = strcontains(var.topology_properties, "geobroker.topology.regions=")
    error_message = "topology_properties must be a geobroker topology file."
  }
}

variable "rest_allowed_cidrs" {
  description = "IPv4 CIDRs allowed to call the broker's REST API on 8080 and its FIX acceptor on 9878 (clients, load balancer, load generator). Empty: nobody outside the deployment."
  type        = list(string)
  default     = []
  validation {
    condition     = alltrue([for c in var.rest_allowed_cidrs : can(cidrnetmask(c)) && c != "0.0.0.0/0"])
    error_message = "rest_allowed_cidrs takes IPv4 CIDRs and never 0.0.0.0/0; put a load balancer or a client range here."
  }
}

variable "metrics_allowed_cidrs" {
  description = "IPv4 CIDRs of Prometheus servers allowed to scrape /actuator/prometheus on 8080 of every service. Empty by default."
  type        = list(string)
  default     = []
  validation {
    condition     = alltrue([for c in var.metrics_allowed_cidrs : can(cidrnetmask(c)) && c != "0.0.0.0/0"])
    error_message = "metrics_allowed_cidrs takes IPv4 CIDRs and never 0.0.0.0/0."
  }
}

variable "peer_broker_addresses" {
  description = "Private addresses of the other regions' brokers: market orders are routed broker to broker on 8080 over VPC peering."
  type        = list(string)
  default     = []
}

variable "admin_token_secret_arn" {
  description = "Secrets Manager secret holding GEOBROKER_ADMIN_TOKEN (value set by the operator)."
  type        = string
}

variable "peer_token_secret_arn" {
  description = "Secrets Manager secret holding GEOBROKER_PEER_TOKEN, the same value in every region (set by the operator)."
  type        = string
}

variable "release_bucket" {
  description = "S3 bucket holding the release jars under geobroker/<release_version>/ (broker-service.jar, ticker-service.jar, schema.jar)."
  type        = string
}

variable "release_version" {
  description = "Which release of the jars to run."
  type        = string
  validation {
    condition     = can(regex("^[0-9A-Za-z._-]+$", var.release_version))
    error_message = "release_version is a plain version string (it becomes an S3 prefix)."
  }
}

variable "broker_instance_type" {
  description = "EC2 type of the broker. c5.large: 2 vCPU, 4 GiB (heap 512 MiB); not burstable, so latency does not depend on CPU credits."
  type        = string
  default     = "c5.large"
}

variable "ticker_instance_type" {
  description = "EC2 type of a ticker-service instance (heap 256 MiB)."
  type        = string
  default     = "t3.small"
}

variable "ami_id" {
  description = "AMI of the instances (Amazon Linux 2023, x86_64)."
  type        = string
}

variable "kms_key_arn" {
  description = "The region's KMS key (root volumes, secrets)."
  type        = string
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
