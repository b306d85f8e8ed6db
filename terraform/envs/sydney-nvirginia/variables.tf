variable "regions" {
  description = "The regions, in topology order, with their counts. Every entry needs a provider alias and a module block in main.tf, and peering with every other region."
  type = list(object({
    name               = string
    cloud_region       = string
    azs                = list(string)
    cidr               = string
    dc                 = string
    exchanges          = list(string)
    replication_factor = optional(number, 3)
    cassandra_nodes    = optional(number, 3)
    kafka_brokers      = optional(number, 3)
    ticker_instances   = optional(number, 1)
  }))
  default = [
    {
      name         = "sydney"
      cloud_region = "ap-southeast-2"
      azs          = ["ap-southeast-2a", "ap-southeast-2b", "ap-southeast-2c"]
      cidr         = "10.10.0.0/16"
      dc           = "SydneyDC"
      exchanges    = ["ASX"]
    },
    {
      name         = "nvirginia"
      cloud_region = "us-east-1"
      azs          = ["us-east-1a", "us-east-1b", "us-east-1c"]
      cidr         = "10.20.0.0/16"
      dc           = "NorthVirginiaDC"
      exchanges    = ["NYSE", "NASDAQ"]
    },
  ]

  validation {
    condition     = length(var.regions) >= 2
    error_message = "This environment deploys at least two regions."
  }
  validation {
    condition     = length(distinct([for r in var.regions : r.name])) == length(var.regions) && length(distinct([for r in var.regions : r.dc])) == length(var.regions)
    error_message = "Region names and DC names must be unique."
  }
  validation {
    condition     = alltrue([for r in var.regions : length(r.azs) == 3 && alltrue([for az in r.azs : startswith(az, r.cloud_region)])])
    error_message = "Each region lists three availability zones of its own cloud region."
  }
  validation {
    condition     = alltrue([for r in var.regions : r.cassandra_nodes >= r.replication_factor])
    error_message = "A DC needs at least replication_factor Cassandra nodes."
  }
}

variable "sizes" {
  description = "Instance types, heaps (MiB) and volume sizes (GiB) for every region (see modules/region)."
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
  description = "IPv4 CIDRs allowed on the brokers' REST API (8080). Empty by default: nothing outside the deployment."
  type        = list(string)
  default     = []
  validation {
    condition     = alltrue([for c in var.rest_allowed_cidrs : can(cidrnetmask(c)) && c != "0.0.0.0/0"])
    error_message = "rest_allowed_cidrs takes IPv4 CIDRs and never 0.0.0.0/0."
  }
}

variable "metrics_allowed_cidrs" {
  description = "IPv4 CIDRs of Prometheus servers allowed to scrape the services. Empty by default."
  type        = list(string)
  default     = []
}

variable "nat_gateway_per_az" {
  description = "One NAT gateway per zone (zone-outage tolerant) instead of one per region (cheaper)."
  type        = bool
  default     = false
}

variable "release_bucket" {
  description = "S3 bucket with the release jars under geobroker/<release_version>/."
  type        = string
}

variable "release_version" {
  description = "Release of the jars to run."
  type        = string
}

variable "tags" {
  description = "Tags on every resource of every region."
  type        = map(string)
  default     = { Project = "geobroker", Environment = "sydney-nvirginia" }
}
