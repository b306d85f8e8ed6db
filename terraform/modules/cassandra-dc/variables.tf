variable "name" {
  description = "Region name (sydney, nvirginia, ...), used in resource names."
  type        = string
}

variable "dc" {
  description = "The Cassandra DC name the services of this region use as their local DC (SydneyDC, NorthVirginiaDC, ...)."
  type        = string
  validation {
    condition     = can(regex("^[A-Za-z][A-Za-z0-9]*$", var.dc))
    error_message = "dc must be letters and digits, starting with a letter."
  }
}

variable "cluster_name" {
  description = "Cassandra cluster name; identical in every DC of the deployment."
  type        = string
  default     = "geobroker"
}

variable "vpc_id" {
  description = "The region's VPC."
  type        = string
}

variable "azs" {
  description = "The region's three availability zones, in zone order (index 0..2); a node's az index picks one."
  type        = list(string)
}

variable "subnet_ids" {
  description = "The data subnets, one per zone, in zone order."
  type        = list(string)
}

variable "nodes" {
  description = "One entry per node: its zone index and fixed private address (from the topology module)."
  type = list(object({
    az = number
    ip = string
  }))
  validation {
    condition     = length(var.nodes) >= 1 && alltrue([for n in var.nodes : n.az >= 0 && n.az <= 2])
    error_message = "At least one node, each in zone 0, 1 or 2."
  }
}

variable "seeds" {
  description = "Seed addresses of all DCs (every node of every DC lists the same seeds)."
  type        = list(string)
  validation {
    condition     = length(var.seeds) >= 1
    error_message = "At least one seed."
  }
}

variable "peer_node_addresses" {
  description = "Private addresses of the other DCs' nodes: the only remote sources allowed on the internode ports (security groups cannot be referenced across regions)."
  type        = list(string)
  default     = []
}

variable "client_security_group_ids" {
  description = "Security groups allowed on CQL (9042): the region's brokers and schema job."
  type        = list(string)
}

variable "instance_type" {
  description = "EC2 type of a node. r5.large: 2 vCPU, 16 GiB."
  type        = string
  default     = "r5.large"
}

variable "heap_mb" {
  description = "Cassandra heap (MiB). Half of an r5.large's memory; the rest is page cache for SSTables."
  type        = number
  default     = 8192
  validation {
    condition     = var.heap_mb >= 512 && var.heap_mb <= 31744
    error_message = "heap_mb must be 512..31744 (stay under 31 GiB for compressed pointers)."
  }
}

variable "data_volume_gb" {
  description = "Size of each node's encrypted gp3 data volume."
  type        = number
  default     = 200
  validation {
    condition     = var.data_volume_gb >= 20 && var.data_volume_gb <= 16384
    error_message = "data_volume_gb must be 20..16384."
  }
}

variable "cassandra_version" {
  description = "Apache Cassandra release installed from archive.apache.org (checked against its SHA-512)."
  type        = string
  default     = "5.0.6"
  validation {
    condition     = can(regex("^5\\.0\\.[0-9]+$", var.cassandra_version))
    error_message = "geobroker runs on Apache Cassandra 5.0.x."
  }
}

variable "num_tokens" {
  description = "Virtual nodes per node (16 with the token allocator, as Cassandra 4+ recommends)."
  type        = number
  default     = 16
}

variable "replication_factor" {
  description = "The DC's replication factor, given to the token allocator."
  type        = number
}

variable "ami_id" {
  description = "AMI of the nodes (Amazon Linux 2023, x86_64). Changes do not replace running nodes."
  type        = string
}

variable "kms_key_arn" {
  description = "The region's KMS key for the root and data volumes."
  type        = string
}

variable "internode_keystore_secret_arn" {
  description = "Secrets Manager secret (JSON: keystore_p12, truststore_p12 base64, password) with the TLS material for internode encryption between DCs. Created and filled by the operator."
  type        = string
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
