variable "name" {
  description = "Region name (sydney, nvirginia, ...), used in resource names."
  type        = string
}

variable "cidr" {
  description = "The VPC's IPv4 /16."
  type        = string
  validation {
    condition     = can(cidrnetmask(var.cidr)) && endswith(var.cidr, "/16")
    error_message = "cidr must be an IPv4 /16."
  }
}

variable "azs" {
  description = "Exactly three availability zones of the region."
  type        = list(string)
  validation {
    condition     = length(var.azs) == 3 && length(distinct(var.azs)) == 3
    error_message = "azs must name three distinct availability zones."
  }
}

variable "public_subnets" {
  description = "One CIDR per zone for the NAT gateway(s); nothing else runs there."
  type        = list(string)
}

variable "app_subnets" {
  description = "One CIDR per zone for the services."
  type        = list(string)
}

variable "data_subnets" {
  description = "One CIDR per zone for Cassandra and Kafka."
  type        = list(string)
}

variable "nat_gateway_per_az" {
  description = "One NAT gateway per zone (survives a zone outage) instead of one for the region (cheaper)."
  type        = bool
  default     = false
}

variable "kms_key_arn" {
  description = "The region's KMS key, used to encrypt the flow-log group."
  type        = string
}

variable "flow_log_retention_days" {
  description = "How long VPC flow logs are kept."
  type        = number
  default     = 365
}

variable "tags" {
  description = "Tags for every resource."
  type        = map(string)
  default     = {}
}
