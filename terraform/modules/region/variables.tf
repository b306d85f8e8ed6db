variable "name" {
  description = "This region's name: a key of topology.regions."
  type        = string
  validation {
    condition     = can(regex("^[a-z][a-z0-9]*$", var.name))
    error_message = "Region names are lower-case letters and digits."
  }
}

variable "topology" {
  description = "The topology module's `regions` output: every region's settings and addresses (this one's and its peers')."
  type        = any
}

variable "seeds" {
  description = "The topology module's `all_seeds` output: Cassandra seeds of every DC."
  type        = list(string)
}

variable "topology_properties" {
  description = "The topology module's `properties` output: the file every service loads."
  type        = string
}

variable "azs" {
  description = "Three availability zones of this region, in zone order."
  type        = list(string)
  validation {
    condition     = length(var.azs) == 3 && length(distinct(var.azs)) == 3
    error_message = "azs must name three distinct availability zones."
  }
}

variable "sizes" {
  description = "Instance types, heaps (MiB) and volume sizes (GiB); every field has a default."
  type = object({
    cassandra_instance_type = optional(string, "r5.large")
    cassandra_heap_mb       = optional(number, 8192)
    cassandra_volume_gb     = optional(number, 200)
    kafka_instance_type     = optional(string, "m5.large")
    kafka_heap_mb           = optional(number, 2048)
    kafka_volume_gb         = optional(number, 100)
    broker_instance_type    = optional(string, "c5.large")
    ticker_instance_type    = optional(string, "t3.small")
  })
  default = {}
}

variable "rest_allowed_cidrs" {
  description = "IPv4 CIDRs allowed on the broker's REST API. Empty by default."
  type        = list(string)
  default     = []
}

variable "metrics_allowed_cidrs" {
  description = "IPv4 CIDRs of Prometheus servers allowed to scrape the services. Empty by default."
  type        = list(string)
  default     = []
}

variable "nat_gateway_per_az" {
  description = "One NAT gateway per zone instead of one per region."
  type        = bool
  default     = false
}

variable "release_bucket" {
  description = "S3 bucket with the release jars (in this region, or readable from it)."
  type        = string
}

variable "release_version" {
  description = "Release of the jars to run."
  type        = string
}

variable "ami_id" {
  description = "AMI for every instance. Null: the latest Amazon Linux 2023 (x86_64) at the first apply (later AMI changes do not replace data nodes)."
  type        = string
  default     = null
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
