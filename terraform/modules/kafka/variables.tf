variable "name" {
  description = "Region name (sydney, nvirginia, ...), used in resource names."
  type        = string
}

variable "vpc_id" {
  description = "The region's VPC."
  type        = string
}

variable "azs" {
  description = "The region's three availability zones, in zone order; a broker's az index picks one (and is its rack)."
  type        = list(string)
}

variable "subnet_ids" {
  description = "The data subnets, one per zone, in zone order."
  type        = list(string)
}

variable "brokers" {
  description = "One entry per Kafka node (combined KRaft broker and controller): zone index and fixed private address."
  type = list(object({
    az = number
    ip = string
  }))
  validation {
    condition     = contains([1, 3, 5], length(var.brokers))
    error_message = "Run 1, 3 or 5 Kafka nodes: every node is also a KRaft controller and the quorum needs an odd size."
  }
}

variable "client_security_group_ids" {
  description = "Security groups allowed on the Kafka listener (9092): the region's services."
  type        = list(string)
}

variable "instance_type" {
  description = "EC2 type of a Kafka node. m5.large: 2 vCPU, 8 GiB."
  type        = string
  default     = "m5.large"
}

variable "heap_mb" {
  description = "Kafka heap (MiB). Kafka lives off the page cache, so the heap stays a quarter of the memory."
  type        = number
  default     = 2048
  validation {
    condition     = var.heap_mb >= 256 && var.heap_mb <= 16384
    error_message = "heap_mb must be 256..16384."
  }
}

variable "data_volume_gb" {
  description = "Size of each node's encrypted gp3 log volume."
  type        = number
  default     = 100
  validation {
    condition     = var.data_volume_gb >= 10 && var.data_volume_gb <= 16384
    error_message = "data_volume_gb must be 10..16384."
  }
}

variable "kafka_version" {
  description = "Apache Kafka release (Scala 2.13 build) installed from archive.apache.org, checked against its SHA-512; 4.x runs KRaft only."
  type        = string
  default     = "4.3.1"
  validation {
    condition     = can(regex("^4\\.[0-9]+\\.[0-9]+$", var.kafka_version))
    error_message = "geobroker runs on Apache Kafka 4.x (KRaft)."
  }
}

variable "cluster_id" {
  description = "KRaft cluster id (22 characters, base64url of 16 bytes). Empty: derived from the region name, so it is stable across plans."
  type        = string
  default     = ""
  validation {
    condition     = var.cluster_id == "" || can(regex("^[A-Za-z0-9_-]{22}$", var.cluster_id))
    error_message = "cluster_id must be 22 base64url characters (or empty)."
  }
}

variable "ami_id" {
  description = "AMI of the nodes (Amazon Linux 2023, x86_64). Changes do not replace running nodes."
  type        = string
}

variable "kms_key_arn" {
  description = "The region's KMS key for the root and log volumes."
  type        = string
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
